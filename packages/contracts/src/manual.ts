// Manual test cases (issue 41): a case of the suite's `manual` kind waits for a tester instead of a worker. Each of
// its platforms is one piece of manual work in the operators' queue; an operator claims it, walks its steps (a
// verdict, a note and evidence per step) and submits it; its verdict becomes the test's result in that run.
import { z } from 'zod';
import { BUG_ATTACHMENT_MAX_BYTES, BUG_ATTACHMENT_TYPES } from './bugs.ts';
import { text } from './text.ts';

/** A tester's verdict on one step; `blocked`: the step could not be walked (a precondition failed, the site was down). */
export const manualStepVerdict = z.enum(['passed', 'failed', 'blocked'], { error: 'verdict must be passed, failed or blocked' });
export type ManualStepVerdictValue = z.infer<typeof manualStepVerdict>;

/** Where a piece of manual work stands: waiting for a tester, claimed by one, submitted, or not run by its due time. */
export const manualWorkStatus = z.enum(['waiting', 'claimed', 'submitted', 'not-run']);
export type ManualWorkStatus = z.infer<typeof manualWorkStatus>;

/** What a tester may upload for a step: screenshots and short screen recordings, as a bug's attachments (and their size limit). */
export const MANUAL_EVIDENCE_TYPES = BUG_ATTACHMENT_TYPES;
export const MANUAL_EVIDENCE_MAX_BYTES = BUG_ATTACHMENT_MAX_BYTES;
export const MANUAL_EVIDENCE_TYPES_TEXT = 'PNG, JPEG, GIF or WebP images, MP4, WebM or MOV videos';
/** Files a step may carry. */
export const MANUAL_EVIDENCE_PER_STEP = 5;

/** How long a claim holds when its tester goes quiet: twice the case's estimate, at least this. */
export const MANUAL_CLAIM_MIN_MINUTES = 30;

/** The platform a piece of work asks for, and what the tester says was really used. */
export const manualPlatform = z
  .object({
    device: text('device').trim().min(1, 'device must not be empty').max(80, 'device must be at most 80 characters'),
    browser: text('browser').trim().min(1, 'browser must not be empty').max(80, 'browser must be at most 80 characters').optional(),
    os: text('os').trim().min(1, 'os must not be empty').max(80, 'os must be at most 80 characters').optional(),
  })
  .strict();
export type ManualPlatformValue = z.infer<typeof manualPlatform>;

/** One piece of manual work in the queue. */
export const manualWorkItem = z.object({
  id: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  runId: z.string(),
  runTestId: z.string(),
  testName: z.string(),
  group: z.string(),
  /** The platform in words ("iPhone 15 · Safari · iOS 18"). */
  platform: z.string(),
  status: manualWorkStatus,
  dueAt: z.string(),
  estimateMinutes: z.number().int(),
  stepCount: z.number().int(),
  claimedBy: z.string().nullable(),
  claimedByMe: z.boolean(),
  claimExpiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ManualWorkItem = z.infer<typeof manualWorkItem>;

/** GET /operator/manual: the work not yet done, soonest due first; `holding`: the one the caller has claimed. */
export const manualWorkListResponse = z.object({ items: z.array(manualWorkItem), holding: z.string().nullable() });
export type ManualWorkListResponse = z.infer<typeof manualWorkListResponse>;

export const manualEvidenceItem = z.object({ id: z.string(), name: z.string(), contentType: z.string(), size: z.number().int() });
export type ManualEvidenceItem = z.infer<typeof manualEvidenceItem>;

/** One step as the case writes it and as the tester has found it so far. */
export const manualWorkStep = z.object({
  action: z.string(),
  expected: z.string(),
  wcag: z.array(z.string()),
  verdict: manualStepVerdict.nullable(),
  note: z.string().nullable(),
  evidence: z.array(manualEvidenceItem),
});
export type ManualWorkStep = z.infer<typeof manualWorkStep>;

/** GET /operator/manual/{id}: everything a tester needs to walk the case. */
export const manualWorkDetailResponse = manualWorkItem.extend({
  goal: z.string(),
  preconditions: z.array(z.string()),
  testData: z.record(z.string(), z.string()),
  references: z.array(z.string()),
  steps: z.array(manualWorkStep),
  /** The platform asked for, field by field (the form starts from it). */
  asked: manualPlatform,
  used: manualPlatform.nullable(),
});
export type ManualWorkDetailResponse = z.infer<typeof manualWorkDetailResponse>;

export const manualWorkParams = z.object({ id: z.string().min(1).max(64) });
export const manualStepParams = manualWorkParams.extend({ step: z.coerce.number().int().min(1, 'step is counted from 1').max(50) });
export const manualEvidenceParams = manualStepParams.extend({ evidenceId: z.string().min(1).max(64) });

/** PUT /operator/manual/{id}/steps/{step}: a step's verdict and note, saved as the tester goes. */
export const manualStepRequest = z
  .object({
    verdict: manualStepVerdict.nullable(),
    note: text('note').max(2000, 'note must be at most 2000 characters').nullable(),
  })
  .strict();
export type ManualStepRequest = z.infer<typeof manualStepRequest>;

/**
 * POST /operator/manual/{id}/submit: what was really used. Every step up to the first failed or blocked one needs a
 * verdict; the steps after it may stay unreached. The case's verdict follows: failed, else blocked, else passed.
 */
export const manualSubmitRequest = z.object({ used: manualPlatform }).strict();
export type ManualSubmitRequest = z.infer<typeof manualSubmitRequest>;

/** When a client's manual work is due: this many hours after the run, counting working days only when asked. */
export const manualSettings = z
  .object({
    dueHours: z.number({ error: 'dueHours must be a number of hours' }).int().min(1, 'dueHours must be at least 1').max(336, 'dueHours must be at most 336 (two weeks)'),
    /** Saturdays and Sundays (UTC) do not count. */
    workingDaysOnly: z.boolean({ error: 'workingDaysOnly must be true or false' }),
  })
  .strict();
export type ManualSettings = z.infer<typeof manualSettings>;
/** The promise on the site: work starts within 48 hours. */
export const DEFAULT_MANUAL_SETTINGS: ManualSettings = { dueHours: 48, workingDaysOnly: true };

/** The due time of work queued at `from` under `settings`: weekend hours skipped when only working days count. */
export function manualDueAt(from: Date, settings: ManualSettings): Date {
  if (!settings.workingDaysOnly) return new Date(from.getTime() + settings.dueHours * 3_600_000);
  const HOUR = 3_600_000;
  let at = from.getTime();
  let left = settings.dueHours * HOUR;
  while (left > 0) {
    const day = new Date(at).getUTCDay();
    const nextMidnight = Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth(), new Date(at).getUTCDate() + 1);
    if (day === 0 || day === 6) {
      at = nextMidnight;
      continue;
    }
    const step = Math.min(left, nextMidnight - at);
    at += step;
    left -= step;
  }
  return new Date(at);
}

/** A run's manual work still open, for the run detail: "2 manual cases waiting for a tester, due by …". */
export const runManualWaiting = z.object({ count: z.number().int(), dueAt: z.string() });
export type RunManualWaiting = z.infer<typeof runManualWaiting>;

/** GET /test/manual-cases: the current suite's manual cases as the client's Tests page shows them. */
export const manualCaseListResponse = z.object({
  cases: z.array(
    z.object({
      testName: z.string(),
      group: z.string(),
      goal: z.string(),
      preconditions: z.array(z.string()),
      steps: z.array(z.object({ action: z.string(), expected: z.string(), wcag: z.array(z.string()) })),
      /** Each platform in words ("iPhone 15 · Safari · iOS 18"). */
      platforms: z.array(z.string()),
      estimateMinutes: z.number().int(),
    }),
  ),
});
export type ManualCaseListResponse = z.infer<typeof manualCaseListResponse>;
