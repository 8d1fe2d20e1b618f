import { z } from 'zod';
import { idString } from './common.ts';
import { text } from './text.ts';
import { runStatus } from './tests.ts';

/** What a failed test leaves behind for a client to look at: Playwright traces and screenshots. */
export const evidenceKind = z.enum(['trace', 'screenshot']);
export type EvidenceKind = z.infer<typeof evidenceKind>;

export const evidenceParams = z.object({ runId: idString, runTestId: idString });
export const evidenceLinkParams = evidenceParams.extend({ evidenceId: idString });
export const operatorEvidenceParams = evidenceParams.extend({ id: idString });
export const operatorEvidenceLinkParams = evidenceLinkParams.extend({ id: idString });

/** One trace or screenshot of a run test, with the case it belongs to when the runner says so. */
export const evidenceItem = z.object({
  /** Stable for this run test: the same file always has the same id. */
  evidenceId: z.string(),
  kind: evidenceKind,
  label: z.string(),
  /** `file › describe › title`, as the run's cases name it; null when the file is not tied to one case. */
  caseName: z.string().nullable(),
  /** That case's error, when it failed. */
  caseError: z.string().nullable(),
  /** The attempt of the run test that wrote it. */
  attempt: z.number().int().nullable(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
});
export type EvidenceItem = z.infer<typeof evidenceItem>;

/** GET /test/runs/{runId}/tests/{runTestId}/evidence */
export const evidenceListResponse = z.object({
  runId: z.string(),
  runTestId: z.string(),
  testName: z.string(),
  status: runStatus,
  evidence: z.array(evidenceItem),
});
export type EvidenceListResponse = z.infer<typeof evidenceListResponse>;

/**
 * POST /test/runs/{runId}/tests/{runTestId}/evidence/{evidenceId}/link: a short-lived address on our origin.
 * A trace's opens Playwright's trace viewer on it; a screenshot's is the image itself.
 */
export const evidenceLinkResponse = z.object({ url: z.string(), expiresIn: z.number().int() });
export type EvidenceLinkResponse = z.infer<typeof evidenceLinkResponse>;

/** GET /evidence/file/{token}: the token is the rest of the path. */
export const evidenceFileParams = z.object({
  '*': text('token').min(1, { error: 'token is required' }).max(2000, { error: 'token is too long' }),
});

/** The trace viewer reads a trace given by a relative address through `trace/file?path=`, beside its own folder. */
export const traceViewerFileQuery = z.object({
  path: text('path').min(1, { error: 'path is required' }).max(2100, { error: 'path is too long' }),
});
