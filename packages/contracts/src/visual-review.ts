// Reviewing a run's visual shots (issue 27, decision 0082): the client reads it in the portal, an operator approves
// or rejects each changed shot in the console (or every one of a run at once), and may open a bug from a rejected one.
import { z } from 'zod';
import { bugSeverity } from './bugs.ts';
import { idString } from './common.ts';
import { text } from './text.ts';
import { runStatus } from './tests.ts';
import { visualRegion, visualShotStatus } from './visual.ts';

export const visualReviewParams = z.object({ runId: idString });
export const operatorVisualReviewParams = visualReviewParams.extend({ id: idString });
export const operatorVisualCandidateParams = operatorVisualReviewParams.extend({ candidateId: idString });

/** Where a candidate stands: waiting for an operator, made the baseline, or turned down (the baseline stays). */
export const visualReviewState = z.enum(['pending', 'approved', 'rejected']);
export type VisualReviewState = z.infer<typeof visualReviewState>;

/** An image of the shot: a short-lived evidence link (the same links and route as the evidence's screenshots). */
export const visualReviewImage = z.object({ url: z.string(), width: z.number().int().nullable(), height: z.number().int().nullable() });
export type VisualReviewImage = z.infer<typeof visualReviewImage>;

/** A shot's candidate and what was decided of it. */
export const visualReview = z.object({
  candidateId: z.string(),
  state: visualReviewState,
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  note: z.string().nullable(),
  bugId: z.string().nullable(),
  /**
   * False when the shot was compared with a baseline that is no longer the key's current one (or was new, and the
   * key has one now): approving it is allowed, and replaces a newer baseline.
   */
  comparedWithCurrent: z.boolean(),
});
export type VisualReview = z.infer<typeof visualReview>;

/** One page on one cell, as the run shot it. Page, reason and URL are the client's words: escape them. */
export const visualReviewShot = z.object({
  key: z.string(),
  page: z.string(),
  url: z.string(),
  cell: z.string(),
  status: visualShotStatus,
  reason: z.string().nullable(),
  changedPixels: z.number().int().nullable(),
  changedRatio: z.number().nullable(),
  /** changedRatio in words ("0.42%"), null when nothing was compared. */
  share: z.string().nullable(),
  region: visualRegion.nullable(),
  baseline: visualReviewImage.nullable(),
  current: visualReviewImage.nullable(),
  diff: visualReviewImage.nullable(),
  /** Present for the shot a run offers as its key's baseline (a new or changed one). */
  review: visualReview.nullable(),
});
export type VisualReviewShot = z.infer<typeof visualReviewShot>;

export const visualReviewTest = z.object({
  runTestId: z.string(),
  testName: z.string(),
  status: runStatus,
  shots: z.array(visualReviewShot),
});
export type VisualReviewTest = z.infer<typeof visualReviewTest>;

/** GET /test/runs/{runId}/visual (portal, read-only) and GET /operator/clients/{id}/runs/{runId}/visual (console). */
export const visualReviewResponse = z.object({
  runId: z.string(),
  clientId: z.string(),
  tests: z.array(visualReviewTest),
  counts: z.object({ changed: z.number().int(), pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() }),
  /** Seconds the image links work: read the review again for fresh ones. */
  expiresIn: z.number().int(),
});
export type VisualReviewResponse = z.infer<typeof visualReviewResponse>;

/** POST …/visual/candidates/{candidateId}/reject */
export const visualRejectBody = z
  .object({ note: text('note').trim().max(2000, { error: 'note must be at most 2000 characters' }).optional() })
  .strict();
export type VisualRejectBody = z.infer<typeof visualRejectBody>;

/** POST …/visual/candidates/{candidateId}/bug: rejects the shot when still pending and opens a bug with its images. */
export const visualBugBody = z
  .object({
    note: text('note').trim().max(2000, { error: 'note must be at most 2000 characters' }).optional(),
    severity: bugSeverity.default('medium'),
    /** Publish at once (open) rather than keep as a draft. */
    publish: z.boolean().default(false),
  })
  .strict();
export type VisualBugBody = z.infer<typeof visualBugBody>;

/** What an approval, a rejection or a bug answers: the words to show and the shot's review now. */
export const visualDecisionResponse = z.object({
  message: z.string(),
  review: visualReview,
  /** The key's baseline version an approval made. */
  baselineVersion: z.number().int().nullable(),
  bugId: z.string().nullable(),
  bugNumber: z.number().int().nullable(),
});
export type VisualDecisionResponse = z.infer<typeof visualDecisionResponse>;

/** POST /operator/clients/{id}/runs/{runId}/visual/approve-all */
export const visualApproveAllResponse = z.object({
  message: z.string(),
  approved: z.number().int(),
  /** Of those, the shots that were compared with a baseline no longer current. */
  stale: z.number().int(),
});
export type VisualApproveAllResponse = z.infer<typeof visualApproveAllResponse>;

const seg = encodeURIComponent;
/** The review's API paths (the server registers the same) and its pages in the portal and the console. */
export const visualReviewPaths = {
  client: (runId: string) => `/test/runs/${seg(runId)}/visual`,
  operator: (clientId: string, runId: string) => `/operator/clients/${seg(clientId)}/runs/${seg(runId)}/visual`,
  approve: (clientId: string, runId: string, candidateId: string) => `/operator/clients/${seg(clientId)}/runs/${seg(runId)}/visual/candidates/${seg(candidateId)}/approve`,
  approveAll: (clientId: string, runId: string) => `/operator/clients/${seg(clientId)}/runs/${seg(runId)}/visual/approve-all`,
  reject: (clientId: string, runId: string, candidateId: string) => `/operator/clients/${seg(clientId)}/runs/${seg(runId)}/visual/candidates/${seg(candidateId)}/reject`,
  bug: (clientId: string, runId: string, candidateId: string) => `/operator/clients/${seg(clientId)}/runs/${seg(runId)}/visual/candidates/${seg(candidateId)}/bug`,
  /** The console's page of one run's review. */
  opsPage: (clientId: string, runId: string) => `/ops/clients/${seg(clientId)}/runs/${seg(runId)}/visual`,
} as const;
