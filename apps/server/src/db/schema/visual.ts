import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bugs } from './bugs.ts';
import { createdAtColumn, idColumn, ownerClientColumn, users } from './accounts.ts';
import { engineRunTests, engineRuns } from './engine.ts';

// Visual regression (issue 27, decisions 0080 and 0082): each shot's baselines, versioned, and the shots a run offers
// in their place. Owned by the visual feature.

export type VisualCandidateStatus = 'pending' | 'approved' | 'rejected';

/**
 * One version of a shot's baseline (client × key, the key naming test × page × engine × device). The image is in
 * the artifact store under `visual/<client>/<key>/<sha256>.png`; the current version (one per key) is what the
 * next run compares with. Older versions stay: a report made with one keeps its own copy anyway.
 */
export const visualBaselines = pgTable(
  'visual_baselines',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    key: text('key').notNull(),
    /** The test's name: a test's baselines are found by it before it runs (its keys are known only after). */
    testName: text('test_name').notNull(),
    page: text('page').notNull(),
    engine: text('engine').notNull(),
    device: text('device').notNull(),
    version: integer('version').notNull(),
    sha256: text('sha256').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** The image's key in the artifact store. */
    artifactKey: text('artifact_key').notNull(),
    /** Where the shot came from: kept after retention deletes that run (no foreign key). */
    runId: text('run_id'),
    runTestId: text('run_test_id'),
    attempt: integer('attempt'),
    candidateId: text('candidate_id'),
    approvedBy: text('approved_by').references(() => users.id, { onDelete: 'set null' }),
    /** Who approved, as the console showed it then (an operator token has no user). */
    approvedByName: text('approved_by_name').notNull(),
    approvedAt: timestamp('approved_at', { withTimezone: true }).notNull().defaultNow(),
    isCurrent: boolean('is_current').notNull().default(false),
  },
  (t) => [
    uniqueIndex('visual_baselines_client_key_version_key').on(t.clientId, t.key, t.version),
    uniqueIndex('visual_baselines_client_key_current_key').on(t.clientId, t.key).where(sql`${t.isCurrent}`),
    index('visual_baselines_client_test_idx').on(t.clientId, t.testName),
  ],
);

/**
 * A shot a run offers as its key's baseline (a new or changed shot, the first of its key in the attempt that ended
 * the test). Its image stays in the run's folder, so it goes with its run; approving copies it to the baselines.
 */
export const visualCandidates = pgTable(
  'visual_candidates',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    runId: text('run_id')
      .notNull()
      .references(() => engineRuns.id, { onDelete: 'cascade' }),
    runTestId: text('run_test_id')
      .notNull()
      .references(() => engineRunTests.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    key: text('key').notNull(),
    testName: text('test_name').notNull(),
    page: text('page').notNull(),
    engine: text('engine').notNull(),
    device: text('device').notNull(),
    /** 'new' or 'changed', as the run found it. */
    shotStatus: text('shot_status').notNull(),
    sha256: text('sha256').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** The image's key in the artifact store, inside the run test's folder. */
    artifactKey: text('artifact_key').notNull(),
    /** The baseline the shot was compared with (its SHA-256), none for a new shot. */
    comparedWith: text('compared_with'),
    status: text('status').$type<VisualCandidateStatus>().notNull().default('pending'),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedByName: text('decided_by_name'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    note: text('note'),
    bugId: text('bug_id').references(() => bugs.id, { onDelete: 'set null' }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex('visual_candidates_run_test_key_key').on(t.runTestId, t.key),
    index('visual_candidates_run_idx').on(t.runId),
    index('visual_candidates_client_key_idx').on(t.clientId, t.key),
  ],
);
