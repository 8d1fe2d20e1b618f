import { z } from 'zod';
import { clientRef, idString, pageCounts } from './common.ts';
import { runTrigger } from './history.ts';
import { clientSummary } from './operator.ts';
import { isoDateTime, text } from './text.ts';
import { runStatus, runTotals, testFlaky } from './tests.ts';

/**
 * The operators' console (/ops in the web app, /operator/... on the server): clients with their health, one runs
 * feed across clients with its triage, flaky marks, and the audit log.
 */

/** Every page of the console counts pages from 1; pageSize has a ceiling so one call stays small. */
const page = z.coerce.number({ error: 'page must be a number' }).int({ error: 'page must be a whole number' }).min(1, { error: 'page must be at least 1' }).max(10_000).default(1);
const pageSize = (max: number, fallback: number) =>
  z.coerce.number({ error: 'pageSize must be a number' }).int({ error: 'pageSize must be a whole number' }).min(1, { error: 'pageSize must be at least 1' }).max(max, { error: `pageSize must be at most ${max}` }).default(fallback);

/** The audit type of a console page view (features/operator/access-audit.ts). */
export const PAGE_VIEW_AUDIT_TYPE = 'ops.access';

// --- Clients and their health ---

/** How a client is doing, in the four numbers an operator looks at first. */
export const clientHealth = z.object({
  lastRun: z.object({ id: z.string(), status: runStatus, createdAt: z.string(), finishedAt: z.string().nullable() }).nullable(),
  /** Tests whose latest result is failed or could not run. */
  failingTests: z.number().int(),
  openBugs: z.number().int(),
  /** Requests not yet done or declined. */
  requestsWaiting: z.number().int(),
  /** Whether a suite version is current; before the first, the client has no tests (the console lists it). */
  hasSuite: z.boolean(),
});
export type ClientHealth = z.infer<typeof clientHealth>;

/** GET /operator/clients: the CLI's fields, plus health. */
export const opsClientSummary = clientSummary.extend({ health: clientHealth });
export type OpsClientSummary = z.infer<typeof opsClientSummary>;
export const opsClientList = z.object({ clients: z.array(opsClientSummary) });
export type OpsClientList = z.infer<typeof opsClientList>;

export const opsClientUser = z.object({ id: z.string(), name: z.string(), email: z.string(), role: z.string(), createdAt: z.string() });
export type OpsClientUser = z.infer<typeof opsClientUser>;

/** GET /operator/clients/:id: one client as the console's client page shows it. Secret values never leave. */
export const opsClientDetail = z.object({
  id: z.string(),
  clientName: z.string(),
  website: z.string(),
  createdAt: z.string(),
  apiKeyMasked: z.string(),
  users: z.array(opsClientUser),
  origins: z.array(z.string()),
  /** The current suite's version; null before the first import. */
  suiteVersion: z.number().int().nullable(),
  secretNames: z.array(z.string()),
  health: clientHealth,
});
export type OpsClientDetail = z.infer<typeof opsClientDetail>;

// --- Flaky marks ---

export const testNameField = text('testName').trim().min(1, { error: 'testName is required' }).max(100, { error: 'testName must be at most 100 characters' });

export const flakyMarkBody = z.object({
  testName: testNameField,
  note: text('note').trim().max(1000, { error: 'note must be at most 1000 characters' }).optional(),
});
export type FlakyMarkBody = z.infer<typeof flakyMarkBody>;

export const flakyParams = z.object({ id: idString, testName: testNameField });

export const flakyMark = z.object({
  testName: z.string(),
  note: z.string().nullable(),
  markedBy: z.string().nullable(),
  createdAt: z.string(),
  /** Issue 10: how it was flagged, why, and whether an operator confirmed it. */
  source: z.enum(['detected', 'operator']).optional(),
  reason: z.string().nullable().optional(),
  confirmed: z.boolean().optional(),
  confirmedBy: z.string().nullable().optional(),
  confirmedAt: z.string().nullable().optional(),
  detectedAt: z.string().nullable().optional(),
});
export type FlakyMark = z.infer<typeof flakyMark>;
export const flakyMarkList = z.object({ marks: z.array(flakyMark) });
export type FlakyMarkList = z.infer<typeof flakyMarkList>;

// --- The runs feed ---

export const opsRunsQuery = z.object({
  status: runStatus.optional(),
  clientId: idString.optional(),
  page,
  pageSize: pageSize(50, 20),
});
/** What a caller sends: paging may be left to its defaults. */
export type OpsRunsQuery = Omit<z.output<typeof opsRunsQuery>, 'page' | 'pageSize'> & { page?: number; pageSize?: number };

/** A security alert or an accessibility violation of a failing test: what "Create bug" and "Mark false positive" name. */
export const opsFinding = z.object({
  source: z.enum(['security-alert', 'accessibility']),
  ruleId: z.string(),
  name: z.string(),
  /** Risk of an alert, impact of a violation. */
  severity: z.string(),
  url: z.string().nullable(),
  /** An alert an operator already marked a false positive. */
  falsePositive: z.boolean(),
});
export type OpsFinding = z.infer<typeof opsFinding>;

export const opsFailingTest = z.object({
  runTestId: z.string(),
  testName: z.string(),
  kind: z.string(),
  status: runStatus,
  error: z.string().nullable(),
  findings: z.array(opsFinding),
  flaky: z.boolean(),
  /** Why it is flagged flaky and whether an operator confirmed it; null when not flagged. */
  flakyFlag: testFlaky.nullable().optional(),
});
export type OpsFailingTest = z.infer<typeof opsFailingTest>;

export const opsRun = z.object({
  runId: z.string(),
  ...clientRef.shape,
  scope: z.string(),
  status: runStatus,
  trigger: runTrigger,
  totals: runTotals.nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  failingTests: z.array(opsFailingTest),
  /** Visual shots of the run waiting for an operator's approval or rejection (decision 0082); absent when none. */
  visualPending: z.number().int().optional(),
});
export type OpsRun = z.infer<typeof opsRun>;

export const opsRunsPage = z.object({
  runs: z.array(opsRun),
  ...pageCounts.shape,
});
export type OpsRunsPage = z.infer<typeof opsRunsPage>;

// --- The audit log ---

export const opsAuditQuery = z
  .object({
    type: text('type').trim().min(1).max(100, { error: 'type must be at most 100 characters' }).optional(),
    clientId: idString.optional(),
    userId: idString.optional(),
    address: text('address').trim().min(1).max(100, { error: 'address must be at most 100 characters' }).optional(),
    from: isoDateTime('from').optional(),
    to: isoDateTime('to').optional(),
    /** Console page views (`ops.access`) bury the changes: hidden unless `show`, or asked for by their type. */
    pageViews: z.enum(['hide', 'show'], { error: 'pageViews must be hide or show' }).optional(),
    page,
    pageSize: pageSize(100, 50),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { error: 'from must be before to', path: ['from'] });
export type OpsAuditQuery = Omit<z.output<typeof opsAuditQuery>, 'page' | 'pageSize'> & { page?: number; pageSize?: number };

export const opsAuditEvent = z.object({
  id: z.string(),
  type: z.string(),
  clientId: z.string().nullable(),
  clientName: z.string().nullable(),
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  address: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type OpsAuditEvent = z.infer<typeof opsAuditEvent>;

export const opsAuditPage = z.object({
  events: z.array(opsAuditEvent),
  ...pageCounts.shape,
});
export type OpsAuditPage = z.infer<typeof opsAuditPage>;

/** Where each console call goes; the ones with a client in them are built by their caller. */
export const opsApiPaths = {
  clients: '/operator/clients',
  users: '/operator/users',
  runs: '/operator/runs',
  audit: '/operator/audit',
  system: '/operator/system',
  client: (clientId: string) => `/operator/clients/${encodeURIComponent(clientId)}`,
  clientPart: (clientId: string, part: 'flaky' | 'origins' | 'runs' | 'false-positives' | 'reveal-api-key') =>
    `/operator/clients/${encodeURIComponent(clientId)}/${part}`,
  flakyMark: (clientId: string, testName: string) => `/operator/clients/${encodeURIComponent(clientId)}/flaky/${encodeURIComponent(testName)}`,
  flakyConfirm: (clientId: string, testName: string) => `/operator/clients/${encodeURIComponent(clientId)}/flaky/${encodeURIComponent(testName)}/confirm`,
  /** One test of a run of a client: its evidence (`/evidence`, `/evidence/:id/link`) and its report (`/report/:format/link`). */
  runTest: (clientId: string, runId: string, runTestId: string) =>
    `/operator/clients/${encodeURIComponent(clientId)}/runs/${encodeURIComponent(runId)}/tests/${encodeURIComponent(runTestId)}`,
} as const;
