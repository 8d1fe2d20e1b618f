import { z } from 'zod';

/** GET /test/fetch/all: group name to the names of its tests. */
export const testGroups = z.record(z.string(), z.array(z.string()));
export type TestGroups = z.infer<typeof testGroups>;

/** GET /test/run/all and /test/run/{testName}: queued at once, the portal shows the message. */
export const runQueuedResponse = z.object({
  message: z.string(),
  runId: z.string(),
});
export type RunQueuedResponse = z.infer<typeof runQueuedResponse>;

export const runStatus = z.enum(['queued', 'running', 'passed', 'failed', 'error', 'cancelled']);
export type RunStatus = z.infer<typeof runStatus>;

export const runTotals = z.object({
  totalTests: z.number().int(),
  passedTests: z.number().int(),
  failedTests: z.number().int(),
  skippedTests: z.number().int(),
});
export type RunTotals = z.infer<typeof runTotals>;

/** With ?wait=true: the run's outcome, so a client's CI can gate a deploy on it. */
export const runResultResponse = z.object({
  message: z.string(),
  runId: z.string(),
  status: runStatus,
  passed: z.boolean(),
  totals: runTotals,
  tests: z.array(
    z.object({
      testName: z.string(),
      status: runStatus,
      totals: runTotals.nullable(),
      error: z.string().nullable(),
    }),
  ),
});
export type RunResultResponse = z.infer<typeof runResultResponse>;
