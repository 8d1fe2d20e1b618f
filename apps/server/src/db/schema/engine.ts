import type { AfterDeployState, AttemptStatus, RunStatus, RunTotals, RunTrigger } from '@fullstop/contracts';
import type { RunnerSummary, SuiteManifest, TestKind } from '@fullstop/engine';
import { relations, sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn } from './accounts.ts';

// Tables of the test engine (suites, runs, results, reports, alerts). Owned by the engine feature.

const ts = (name: string) => timestamp(name, { withTimezone: true });
/** The row this one belongs to (a client, a run ...): it goes when its owner does. */
const ownerColumn = (name: string, owner: () => AnyPgColumn) => text(name).notNull().references(owner, { onDelete: 'cascade' });

/**
 * One imported version of a client's suite. The current one (at most one per client) is the one that runs and
 * lists tests; an operator may keep a newer one for trial runs before making it current. Files live in `dir`.
 */
export const engineSuites = pgTable(
  'engine_suites',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    version: integer('version').notNull(),
    dir: text('dir').notNull(),
    /** The validated manifest (suite.json), so listing tests needs no file read. */
    manifest: jsonb('manifest').$type<SuiteManifest>().notNull(),
    fileCount: integer('file_count').notNull(),
    importedBy: text('imported_by'),
    isCurrent: boolean('is_current').notNull().default(false),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex('engine_suites_client_version_key').on(t.clientId, t.version),
    uniqueIndex('engine_suites_client_current_key').on(t.clientId).where(sql`${t.isCurrent}`),
  ],
);

/** A request to run tests: "all", or one test by name. */
export const engineRuns = pgTable(
  'engine_runs',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    suiteId: ownerColumn('suite_id', () => engineSuites.id),
    /** 'all' or the test's name. */
    scope: text('scope').notNull(),
    // The statuses are listed once, in @fullstop/contracts (runStatus); the column stays plain text.
    status: text('status').$type<RunStatus>().notNull().default('queued'),
    /** How the run started (runTrigger in @fullstop/contracts): portal, api, ci, schedule or operator. */
    trigger: text('trigger').$type<RunTrigger>().notNull().default('api'),
    /** The user who started it (portal, or an operator's login); null for keys, CI and schedules. */
    requestedBy: text('requested_by'),
    totals: jsonb('totals').$type<RunTotals>(),
    /** A deploy's run (`afterDeploy=true`, issue 42): the re-crawl that follows it (afterDeployState); null otherwise. */
    afterDeploy: jsonb('after_deploy').$type<AfterDeployState>(),
    createdAt: createdAtColumn(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('engine_runs_client_created_idx').on(t.clientId, t.createdAt),
    // The History page's status filter, newest first.
    index('engine_runs_client_status_created_idx').on(t.clientId, t.status, t.createdAt),
    // Alerts look for the last day's finished runs they have not evaluated yet.
    index('engine_runs_finished_idx').on(t.finishedAt),
  ],
);

/** One test inside a run: the unit of work on the queue (one pg-boss job). */
export const engineRunTests = pgTable(
  'engine_run_tests',
  {
    id: idColumn(),
    runId: ownerColumn('run_id', () => engineRuns.id),
    clientId: ownerClientColumn(),
    testName: text('test_name').notNull(),
    groupName: text('group_name').notNull(),
    kind: text('kind').$type<TestKind>().notNull(),
    status: text('status').$type<RunStatus>().notNull().default('queued'),
    jobId: text('job_id'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(1),
    totals: jsonb('totals').$type<RunTotals>(),
    /** The runner's summary (RunnerSummary), what insights are computed from. */
    summary: jsonb('summary').$type<RunnerSummary>(),
    durationMs: integer('duration_ms'),
    error: text('error'),
    progress: jsonb('progress').$type<{ done: number; total: number; message?: string }>(),
    /** Folder of this test's reports; formats written there. */
    reportDir: text('report_dir'),
    reportFormats: jsonb('report_formats').$type<string[]>(),
    createdAt: createdAtColumn(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('engine_run_tests_run_idx').on(t.runId),
    index('engine_run_tests_client_test_idx').on(t.clientId, t.testName, t.finishedAt),
    index('engine_run_tests_client_kind_idx').on(t.clientId, t.kind, t.finishedAt),
    index('engine_run_tests_client_updated_idx').on(t.clientId, t.updatedAt),
    // The console's queue counts read only unfinished rows.
    index('engine_run_tests_unfinished_idx').on(t.status).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** Every attempt of a run test, kept after retries, with its log and the heartbeat that proves it alive. */
export const engineAttempts = pgTable(
  'engine_attempts',
  {
    id: idColumn(),
    runTestId: ownerColumn('run_test_id', () => engineRunTests.id),
    attempt: integer('attempt').notNull(),
    workerId: text('worker_id').notNull(),
    status: text('status').$type<AttemptStatus>().notNull().default('running'),
    error: text('error'),
    /** Relative to the run test's folder. */
    logPath: text('log_path'),
    startedAt: ts('started_at').notNull().defaultNow(),
    heartbeatAt: ts('heartbeat_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('engine_attempts_run_test_attempt_key').on(t.runTestId, t.attempt),
    index('engine_attempts_status_heartbeat_idx').on(t.status, t.heartbeatAt),
  ],
);

/** Security-scan alerts an operator marked false positives; an empty url covers the rule on every URL. */
export const engineFalsePositives = pgTable(
  'engine_false_positives',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    ruleId: text('rule_id').notNull(),
    url: text('url').notNull().default(''),
    note: text('note'),
    createdBy: text('created_by'),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('engine_false_positives_key').on(t.clientId, t.ruleId, t.url)],
);

/** Origins beyond the client's website that its tests may reach, added by an operator. */
export const engineTargetOrigins = pgTable(
  'engine_target_origins',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    origin: text('origin').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('engine_target_origins_key').on(t.clientId, t.origin)],
);

// Relations for Drizzle's relational queries (a run with its tests and their attempts in one query); no DDL.
export const engineRunsRelations = relations(engineRuns, ({ many }) => ({ tests: many(engineRunTests) }));
export const engineRunTestsRelations = relations(engineRunTests, ({ one, many }) => ({
  run: one(engineRuns, { fields: [engineRunTests.runId], references: [engineRuns.id] }),
  attempts: many(engineAttempts),
}));
export const engineAttemptsRelations = relations(engineAttempts, ({ one }) => ({
  runTest: one(engineRunTests, { fields: [engineAttempts.runTestId], references: [engineRunTests.id] }),
}));
