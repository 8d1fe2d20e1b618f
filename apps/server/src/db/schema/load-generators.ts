import type { LoadPart } from '@fullstop/engine/load';
import type { Artifact } from '@fullstop/engine';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn } from './accounts.ts';
import { engineRunTests } from './engine.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export type LoadGeneratorStatus = 'queued' | 'ready' | 'running' | 'done' | 'error';

/** What a generator that ran hands to the one that merges: its part, its artifacts (in its folder) and its time. */
export interface LoadGeneratorResult {
  part: LoadPart;
  artifacts: Artifact[];
  durationMs: number;
}

/**
 * One generator of a load test run by several (issue 12): its own pg-boss job on the load-generator queue, taken
 * by any worker. The generators of a test wait for each other (`ready`), start together at `start_at` (set once
 * for all of them) and the last to end merges the parts (`closed_at`, set once for all of them).
 */
export const engineLoadGenerators = pgTable(
  'engine_load_generators',
  {
    id: idColumn(),
    runTestId: text('run_test_id')
      .notNull()
      .references(() => engineRunTests.id, { onDelete: 'cascade' }),
    clientId: ownerClientColumn(),
    /** 0-based; shown 1-based. */
    index: integer('index').notNull(),
    count: integer('count').notNull(),
    status: text('status').$type<LoadGeneratorStatus>().notNull().default('queued'),
    jobId: text('job_id').notNull(),
    workerId: text('worker_id'),
    host: text('host'),
    readyAt: ts('ready_at'),
    /** The common start, the same on every row of the test; set in one statement once all are ready. */
    startAt: ts('start_at'),
    heartbeatAt: ts('heartbeat_at'),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    result: jsonb('result').$type<LoadGeneratorResult>(),
    error: text('error'),
    /** Set on every row of the test by the one process that ends it (merges, or ends it as an error). */
    closedAt: ts('closed_at'),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('engine_load_generators_test_index_key').on(t.runTestId, t.index), index('engine_load_generators_status_idx').on(t.status)],
);
