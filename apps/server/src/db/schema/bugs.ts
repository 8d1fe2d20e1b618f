import type { BugAction, BugEnvironment, BugSeverity, BugSource, BugStatus } from '@fullstop/contracts';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn, users } from './accounts.ts';

// Bug reports (issue 9): written by operators from a run's evidence or from a manual test, answered by the client.

/** One bug of a client. `number` counts per client ("BUG-12"). */
export const bugs = pgTable(
  'bugs',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    number: integer('number').notNull(),
    title: text('title').notNull(),
    severity: text('severity').$type<BugSeverity>().notNull(),
    status: text('status').$type<BugStatus>().notNull().default('draft'),
    source: text('source').$type<BugSource>().notNull().default('manual'),
    url: text('url').notNull().default(''),
    environment: jsonb('environment').$type<BugEnvironment>().notNull().default({}),
    steps: jsonb('steps').$type<string[]>().notNull().default([]),
    expected: text('expected').notNull().default(''),
    actual: text('actual').notNull().default(''),
    /** The linked test: its name always; the run test the evidence came from when there was one. */
    testName: text('test_name'),
    runId: text('run_id'),
    runTestId: text('run_test_id'),
    ruleId: text('rule_id'),
    /** The run started by the last "Request retest", whose result verifies or reopens the bug. */
    retestRunId: text('retest_run_id'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAtColumn(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bugs_client_number_key').on(t.clientId, t.number),
    index('bugs_client_status_idx').on(t.clientId, t.status, t.updatedAt),
    index('bugs_retest_run_idx').on(t.retestRunId),
  ],
);

const ownerBugColumn = () =>
  text('bug_id')
    .notNull()
    .references(() => bugs.id, { onDelete: 'cascade' });

/** The thread both sides write in. */
export const bugComments = pgTable(
  'bug_comments',
  {
    id: idColumn(),
    bugId: ownerBugColumn(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    side: text('side', { enum: ['client', 'operator'] }).notNull(),
    body: text('body').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [index('bug_comments_bug_idx').on(t.bugId, t.createdAt)],
);

/** Evidence copied from a run (screenshot, trace, finding) or uploaded (image, video); the file is in `path`. */
export const bugAttachments = pgTable(
  'bug_attachments',
  {
    id: idColumn(),
    bugId: ownerBugColumn(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    /** Relative to DATA_DIR. */
    path: text('path').notNull(),
    uploadedBy: text('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAtColumn(),
  },
  (t) => [index('bug_attachments_bug_idx').on(t.bugId)],
);

/** Every status change, with who made it and why: the bug's history. */
export const bugEvents = pgTable(
  'bug_events',
  {
    id: idColumn(),
    bugId: ownerBugColumn(),
    fromStatus: text('from_status').$type<BugStatus>(),
    toStatus: text('to_status').$type<BugStatus>().notNull(),
    action: text('action').$type<BugAction | 'create' | 'retest-result'>().notNull(),
    /** A person's name, "Fullstop QA" or "retest". */
    by: text('by').notNull(),
    reason: text('reason'),
    createdAt: createdAtColumn(),
  },
  (t) => [index('bug_events_bug_idx').on(t.bugId, t.createdAt)],
);
