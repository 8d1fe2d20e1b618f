import { z } from 'zod';
import { idString } from './common.ts';
import { text } from './text.ts';

// Bug reports: what our QA team makes of a failed test, a security alert or an accessibility violation (or of a
// manual test), and what the client answers. Operators write them under /operator/...; clients read and answer
// them under /bugs. Both sides share one thread per bug.

export const bugSeverity = z.enum(['critical', 'high', 'medium', 'low'], {
  error: 'severity must be one of critical, high, medium, low',
});
export type BugSeverity = z.infer<typeof bugSeverity>;

/**
 * draft (operators only) → open → the client accepts it, or answers fixed, wont-fix or not-a-bug (with a reason)
 * → retest (the free retest of a fixed bug) → verified or reopened. A reopened bug is answered again like an open one.
 */
export const bugStatus = z.enum(['draft', 'open', 'accepted', 'fixed', 'wont-fix', 'not-a-bug', 'retest', 'verified', 'reopened'], {
  error: 'status must be one of draft, open, accepted, fixed, wont-fix, not-a-bug, retest, verified, reopened',
});
export type BugStatus = z.infer<typeof bugStatus>;

/** Where a bug came from: a failed test, a security alert, an accessibility violation, or a manual test. */
export const bugSource = z.enum(['test', 'security-alert', 'accessibility', 'manual']);
export type BugSource = z.infer<typeof bugSource>;

/** The largest image or video a bug or a request thread takes: 50 MB. */
export const BUG_ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;
/** The media types an uploaded attachment may have. */
export const BUG_ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'video/mp4', 'video/webm', 'video/quicktime'] as const;

const title = text('title').trim().min(3, { error: 'title must be at least 3 characters' }).max(200, { error: 'title must be at most 200 characters' });
const longText = (field: string, max = 10_000) => text(field).trim().max(max, { error: `${field} must be at most ${max} characters` });

/** The environment a bug was seen in. */
export const bugEnvironment = z.object({
  browser: longText('browser', 200).optional(),
  viewport: longText('viewport', 50).optional(),
  device: longText('device', 200).optional(),
});
export type BugEnvironment = z.infer<typeof bugEnvironment>;

/** The test (and the run test) a bug is linked to: its retest re-runs that test. */
export const bugLink = z.object({
  testName: z.string(),
  runId: z.string().nullable(),
  runTestId: z.string().nullable(),
  /** For a security alert: the rule id; for an accessibility violation: the axe rule id. */
  ruleId: z.string().nullable(),
});
export type BugLink = z.infer<typeof bugLink>;

/** What an operator fills in (or finds prefilled from the evidence). */
export const bugFields = z.object({
  title,
  severity: bugSeverity,
  url: longText('url', 2000).default(''),
  environment: bugEnvironment.default({}),
  steps: z.array(longText('step', 2000)).max(100, { error: 'at most 100 steps' }).default([]),
  expected: longText('expected').default(''),
  actual: longText('actual').default(''),
});
export type BugFields = z.infer<typeof bugFields>;

/** POST /operator/clients/:id/bugs: a draft bug, from evidence (`from`) or from scratch. */
export const createBugBody = bugFields.extend({
  source: bugSource.default('manual'),
  /** The run test the evidence comes from; its screenshot, trace and finding evidence are attached. */
  runTestId: idString.optional(),
  ruleId: longText('ruleId', 200).optional(),
  /** Publish at once (open) rather than keep as a draft. */
  publish: z.boolean().default(false),
});
export type CreateBugBody = z.infer<typeof createBugBody>;

/** PATCH /operator/bugs/:id: an operator edits a bug's fields (any status). */
export const updateBugBody = bugFields.partial();
export type UpdateBugBody = z.infer<typeof updateBugBody>;

/** GET /operator/clients/:id/bugs/prefill?runTestId=…&ruleId=…: the fields as the evidence fills them. */
export const bugPrefillQuery = z.object({
  runTestId: idString,
  ruleId: z.string().max(200).optional(),
});
export const bugPrefill = bugFields.extend({
  source: bugSource,
  runTestId: z.string(),
  ruleId: z.string().nullable(),
  /** The evidence that will be attached: names and kinds, e.g. screenshot, trace, finding. */
  evidence: z.array(z.object({ name: z.string(), kind: z.string() })),
});
export type BugPrefill = z.infer<typeof bugPrefill>;

/**
 * POST /bugs/:id/transition (client) and /operator/bugs/:id/transition (operator): move a bug on. A reason is
 * required for wont-fix, not-a-bug and reject. An impossible move answers 409 naming the allowed ones.
 */
export const bugAction = z.enum(['publish', 'accept', 'reject', 'fixed', 'wont-fix', 'not-a-bug', 'request-retest', 'verify', 'reopen'], {
  error: 'action must be one of publish, accept, reject, fixed, wont-fix, not-a-bug, request-retest, verify, reopen',
});
export type BugAction = z.infer<typeof bugAction>;
export const bugTransitionBody = z.object({
  action: bugAction,
  reason: longText('reason', 5000).optional(),
});
export type BugTransitionBody = z.infer<typeof bugTransitionBody>;

/** PATCH /bugs/:id/severity: the client changes a bug's severity. */
export const bugSeverityBody = z.object({ severity: bugSeverity });

export const bugAttachment = z.object({
  id: z.string(),
  name: z.string(),
  /** screenshot, trace, finding, video, image, file. */
  kind: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  createdAt: z.string(),
});
export type BugAttachment = z.infer<typeof bugAttachment>;

export const bugComment = z.object({
  id: z.string(),
  /** Who wrote it: "Fullstop QA" for operators, the user's name for the client's people. */
  author: z.string(),
  side: z.enum(['client', 'operator']),
  body: z.string(),
  createdAt: z.string(),
});
export type BugComment = z.infer<typeof bugComment>;

export const newBugComment = z.object({
  body: text('comment').trim().min(1, { error: 'comment is required' }).max(10_000, { error: 'comment must be at most 10000 characters' }),
});

/** One change of a bug's status, with who did it and why. */
export const bugEvent = z.object({
  from: bugStatus.nullable(),
  to: bugStatus,
  by: z.string(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type BugEvent = z.infer<typeof bugEvent>;

export const bugSummary = z.object({
  id: z.string(),
  /** A short number per client, shown as "BUG-12". */
  number: z.number().int(),
  title: z.string(),
  severity: bugSeverity,
  status: bugStatus,
  source: bugSource,
  testName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BugSummary = z.infer<typeof bugSummary>;

export const bug = bugSummary.extend({
  clientId: z.string(),
  url: z.string(),
  environment: bugEnvironment,
  steps: z.array(z.string()),
  expected: z.string(),
  actual: z.string(),
  link: bugLink.nullable(),
  attachments: z.array(bugAttachment),
  comments: z.array(bugComment),
  events: z.array(bugEvent),
  /** Where the bug was exported to (GitHub issue, Jira key, webhook), when it was. */
  exports: z.array(z.object({ target: z.string(), reference: z.string(), url: z.string().nullable() })),
  /** The actions the caller may take now. */
  actions: z.array(bugAction),
});
export type Bug = z.infer<typeof bug>;

/** GET /bugs and /operator/bugs: newest first, narrowed by status and severity. */
export const bugListQuery = z.object({
  status: bugStatus.optional(),
  severity: bugSeverity.optional(),
  clientId: idString.optional(),
});
export const bugList = z.object({
  bugs: z.array(bugSummary.extend({ clientId: z.string(), clientName: z.string().optional() })),
  /** Open bugs by status, for the dashboard's count and the filters. */
  counts: z.record(z.string(), z.number().int()),
});
export type BugList = z.infer<typeof bugList>;

export const bugParams = z.object({ id: idString });
export const bugAttachmentParams = z.object({ id: idString, attachmentId: idString });

/** The statuses that still need someone: the dashboard's "open bugs". */
export const OPEN_BUG_STATUSES: readonly BugStatus[] = ['open', 'accepted', 'fixed', 'retest', 'reopened'];
