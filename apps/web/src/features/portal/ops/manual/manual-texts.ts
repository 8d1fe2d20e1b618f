import type { ManualStepVerdictValue, ManualWorkItem, ManualWorkStatus, ManualWorkStep } from '@fullstop/contracts';

/** What the tester's page hands back to the queue after a submit or a release (router state), to say it worked. */
export interface ManualQueueState {
  done?: string;
}

/** Work due within this long is shown as due soon in the queue. */
export const DUE_SOON_MS = 4 * 3_600_000;

/** How near a piece of work is to its due time: past it, within DUE_SOON_MS, or later. */
export type DueState = 'overdue' | 'soon' | 'later';

export function dueState(dueAt: string, now = Date.now()): DueState {
  const left = Date.parse(dueAt) - now;
  if (Number.isNaN(left)) return 'later';
  if (left <= 0) return 'overdue';
  return left <= DUE_SOON_MS ? 'soon' : 'later';
}

/** The words beside a highlighted due time; nothing for work not due soon. */
export const DUE_WORDS: Record<DueState, string | null> = { overdue: 'Overdue', soon: 'Due soon', later: null };

export const STATUS_LABELS: Record<ManualWorkStatus, string> = {
  waiting: 'Waiting',
  claimed: 'Claimed',
  submitted: 'Submitted',
  'not-run': 'Not run',
};

export const VERDICT_LABELS: Record<ManualStepVerdictValue, string> = { passed: 'Pass', failed: 'Fail', blocked: 'Blocked' };
/** A step's verdict once given, as a sentence's end reads it. */
export const VERDICT_WORDS: Record<ManualStepVerdictValue, string> = { passed: 'passed', failed: 'failed', blocked: 'blocked' };

export const stepsText = (count: number) => (count === 1 ? '1 step' : `${count} steps`);
export const minutesText = (minutes: number) => `${minutes} min`;

/** Who works on it, as "Claimed by …" ends: "you", the tester's name, or nobody yet. */
export function holderText(item: Pick<ManualWorkItem, 'status' | 'claimedBy' | 'claimedByMe'>): string | null {
  if (item.claimedByMe) return 'you';
  return item.status === 'claimed' ? (item.claimedBy ?? 'Another tester') : null;
}

/** Why the caller cannot claim this piece of work now, or null when they can. */
export function claimBlockedReason(item: Pick<ManualWorkItem, 'id' | 'status' | 'claimedBy' | 'claimedByMe'>, holding: string | null): string | null {
  if (item.claimedByMe) return null;
  if (item.status === 'claimed') return `${item.claimedBy ?? 'Another tester'} is working on it.`;
  if (item.status !== 'waiting') return `It is ${STATUS_LABELS[item.status].toLowerCase()}.`;
  if (holding && holding !== item.id) return 'You are already working on another case: submit it or give it back first.';
  return null;
}

/**
 * The index (from 0) of the first failed or blocked step, or null. A tester stops there: the steps after it are
 * "not reached", though they stay editable.
 */
export function firstStop(steps: readonly Pick<ManualWorkStep, 'verdict'>[]): number | null {
  const index = steps.findIndex((s) => s.verdict === 'failed' || s.verdict === 'blocked');
  return index < 0 ? null : index;
}

/** Whether step `index` (from 0) comes after the first failed or blocked one. */
export function isNotReached(steps: readonly Pick<ManualWorkStep, 'verdict'>[], index: number): boolean {
  const stop = firstStop(steps);
  return stop !== null && index > stop;
}

/** The number (from 1) of the first step that needs a verdict before submitting: every step up to the first stop does. */
export function firstStepWithoutVerdict(steps: readonly Pick<ManualWorkStep, 'verdict'>[]): number | null {
  const last = firstStop(steps) ?? steps.length - 1;
  const index = steps.slice(0, last + 1).findIndex((s) => s.verdict === null);
  return index < 0 ? null : index + 1;
}

/** The case's verdict from its steps, as the server settles it: failed, else blocked, else passed. */
export function caseVerdict(steps: readonly Pick<ManualWorkStep, 'verdict'>[]): ManualStepVerdictValue {
  if (steps.some((s) => s.verdict === 'failed')) return 'failed';
  if (steps.some((s) => s.verdict === 'blocked')) return 'blocked';
  return 'passed';
}

/** "3 of 5 steps done": the steps with a verdict. */
export function progressText(steps: readonly Pick<ManualWorkStep, 'verdict'>[]): string {
  const done = steps.filter((s) => s.verdict !== null).length;
  return `${done} of ${stepsText(steps.length)} done`;
}
