import {
  BUG_ATTACHMENT_MAX_BYTES,
  BUG_ATTACHMENT_TYPES,
  OPEN_BUG_STATUSES,
  type BugAction,
  type BugEnvironment,
  type BugSeverity,
  type BugSource,
  type BugStatus,
} from '@fullstop/contracts';
import { failureMessage as messageOf } from '@/lib/failure-message.ts';
import { formatBytes } from '@/lib/format-bytes.ts';

export const SEVERITY_LABELS: Record<BugSeverity, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' };

export const STATUS_LABELS: Record<BugStatus, string> = {
  draft: 'Draft',
  open: 'Open',
  accepted: 'Accepted',
  fixed: 'Fixed',
  'wont-fix': "Won't fix",
  'not-a-bug': 'Not a bug',
  retest: 'Retest',
  verified: 'Verified',
  reopened: 'Reopened',
};

export const SOURCE_LABELS: Record<BugSource, string> = {
  test: 'Failed test',
  'security-alert': 'Security alert',
  accessibility: 'Accessibility violation',
  manual: 'Manual testing',
};

export const ACTION_LABELS: Record<BugAction, string> = {
  publish: 'Publish',
  accept: 'Accept',
  reject: 'Reject',
  fixed: 'Mark fixed',
  'wont-fix': "Won't fix",
  'not-a-bug': 'Not a bug',
  'request-retest': 'Request retest',
  verify: 'Verify fix',
  reopen: 'Reopen',
};

/** What is said once the server took an action. */
export const ACTION_DONE: Record<BugAction, string> = {
  publish: 'Published: the client can see this bug now.',
  accept: 'Bug accepted.',
  reject: 'Bug rejected: our QA team will look at it again.',
  fixed: 'Marked fixed. Request the free retest once the fix is live.',
  'wont-fix': "Marked won't fix.",
  'not-a-bug': 'Marked not a bug.',
  'request-retest': 'Retest requested: we will run the linked test again and report the result here.',
  verify: 'Fix verified.',
  reopen: 'Bug reopened.',
};

/** The actions that need a reason, and what the dialog asks. */
export const REASON_PROMPTS: Partial<Record<BugAction, { title: string; hint: string }>> = {
  'wont-fix': { title: "Won't fix this bug", hint: 'Tell us why this bug will not be fixed, so our team can take it into account.' },
  'not-a-bug': { title: 'Not a bug', hint: 'Tell us why this is the intended behaviour, so our team does not report it again.' },
  reject: { title: 'Reject this bug', hint: 'Tell us what is wrong with this report: our team will look at it again.' },
};

export const needsReason = (action: BugAction) => action in REASON_PROMPTS;

/** What "Request retest" means for the client: the linked test re-run, or our QA team by hand when there is none. */
export function retestNote(hasLinkedTest: boolean): string {
  return hasLinkedTest
    ? 'The retest of a fixed bug is free: we run the linked test again and tell you whether the fix holds.'
    : 'The retest of a fixed bug is free: our QA team checks the fix by hand and tells you whether it holds.';
}

/** "BUG-12": the short number a client's bugs go by. */
export const bugNumber = (number: number) => `BUG-${number}`;

/** The dashboard's "open bugs": every status that still needs someone, summed from the list's counts. */
export function openBugCount(counts: Record<string, number> | undefined): number {
  if (!counts) return 0;
  return OPEN_BUG_STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
}

/** Why a file cannot be attached, before it is sent; null when it can. */
export function attachmentProblem(file: { name: string; size: number; type: string }): string | null {
  if (!(BUG_ATTACHMENT_TYPES as readonly string[]).includes(file.type)) {
    return `${file.name} cannot be attached: only PNG, JPEG, GIF and WebP images and MP4 and WebM videos can.`;
  }
  if (file.size > BUG_ATTACHMENT_MAX_BYTES) {
    return `${file.name} is ${formatBytes(file.size)}: attachments can be at most ${formatBytes(BUG_ATTACHMENT_MAX_BYTES)}.`;
  }
  if (file.size === 0) return `${file.name} is empty.`;
  return null;
}

/** What the file picker offers. */
export const ATTACHMENT_ACCEPT = BUG_ATTACHMENT_TYPES.join(',');

export const isImage = (contentType: string) => contentType.startsWith('image/');

/** The environment in one line: "Chromium · 1280×720 · Desktop"; empty when none was noted. */
export function environmentText(environment: BugEnvironment): string {
  return [environment.browser, environment.viewport, environment.device].filter((part) => part?.trim()).join(' · ');
}

/** Operators write steps one a line; empty lines are dropped. */
export const stepsFromText = (value: string) =>
  value
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A failed bug call's message: the server's own words when it gave some, else a plea to try again in a moment. */
export const failureMessage = (error: unknown) => messageOf(error, 'Please try again in a moment.');

/** The field a 400 names (`{ field }` in the answer's text), to show its message beside that field. */
export function failureField(error: unknown): string | null {
  if (!error || typeof error !== 'object' || !('text' in error) || typeof error.text !== 'string') return null;
  try {
    const body: unknown = JSON.parse(error.text);
    return body && typeof body === 'object' && 'field' in body && typeof body.field === 'string' ? body.field : null;
  } catch {
    return null;
  }
}
