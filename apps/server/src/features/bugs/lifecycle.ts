import type { BugAction, BugStatus } from '@fullstop/contracts';
import { AppError, ValidationError } from '../../lib/errors.ts';

export type BugSide = 'client' | 'operator';

interface Move {
  to: BugStatus;
  sides: readonly BugSide[];
  /** The caller must say why (wont-fix, not-a-bug, reject). */
  reason?: true;
}

const client = ['client'] as const;
const operator = ['operator'] as const;
const both = ['client', 'operator'] as const;

/** The client's answers to an open (or reopened) bug. */
const answers: Partial<Record<BugAction, Move>> = {
  accept: { to: 'accepted', sides: client },
  reject: { to: 'not-a-bug', sides: client, reason: true },
  'not-a-bug': { to: 'not-a-bug', sides: client, reason: true },
  'wont-fix': { to: 'wont-fix', sides: client, reason: true },
  fixed: { to: 'fixed', sides: client },
};

/**
 * The lifecycle, status × action → the next status and who may take it. Everything the API answers about what
 * can be done (`actions`, the 409's list) comes from this table.
 */
export const LIFECYCLE: Record<BugStatus, Partial<Record<BugAction, Move>>> = {
  draft: { publish: { to: 'open', sides: operator } },
  open: answers,
  reopened: answers,
  accepted: {
    fixed: { to: 'fixed', sides: client },
    'wont-fix': { to: 'wont-fix', sides: client, reason: true },
    'not-a-bug': { to: 'not-a-bug', sides: client, reason: true },
  },
  fixed: { 'request-retest': { to: 'retest', sides: both } },
  retest: {
    verify: { to: 'verified', sides: operator },
    reopen: { to: 'reopened', sides: operator },
  },
  verified: { reopen: { to: 'reopened', sides: both } },
  'wont-fix': { reopen: { to: 'reopened', sides: both } },
  'not-a-bug': { reopen: { to: 'reopened', sides: both } },
};

/** The actions `side` may take on a bug in `status`, in the table's order. */
export function allowedActions(status: BugStatus, side: BugSide): BugAction[] {
  return (Object.entries(LIFECYCLE[status]) as [BugAction, Move][]).filter(([, m]) => m.sides.includes(side)).map(([a]) => a);
}

/** The 409 of an action the table does not allow now; its code is stable, its message names what is allowed. */
export class BugTransitionError extends AppError {
  constructor(action: BugAction, status: BugStatus, allowed: BugAction[]) {
    const now = allowed.length ? `allowed now: ${allowed.join(', ')}` : 'no action is possible on it now';
    super(409, 'BUG_TRANSITION_NOT_ALLOWED', `"${action}" is not possible on a bug that is ${status}; ${now}`);
  }
}

/** The status `action` leads to, or the 409 / 400 (missing reason) that refuses it. */
export function nextStatus(status: BugStatus, action: BugAction, side: BugSide, reason: string | undefined): BugStatus {
  const move = LIFECYCLE[status][action];
  if (!move || !move.sides.includes(side)) throw new BugTransitionError(action, status, allowedActions(status, side));
  if (move.reason && !reason?.trim()) throw new ValidationError(`reason is required to mark a bug ${move.to}`, 'reason');
  return move.to;
}
