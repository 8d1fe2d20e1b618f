import type { ManualPlatformValue, ManualStepVerdictValue, ManualWorkStatus } from '@fullstop/contracts';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn } from './accounts.ts';
import { engineRunTests } from './engine.ts';

// Manual test cases (issue 41): each platform of a manual case in a run is one piece of work an operator claims,
// walks and submits. Owned by the manual feature.

const ts = (name: string) => timestamp(name, { withTimezone: true });

/** A file a tester uploaded for a step, kept under the run test's attempt folder (`path`, relative to it). */
export interface ManualEvidenceRow {
  id: string;
  name: string;
  contentType: string;
  size: number;
  /** Relative to the attempt folder: `manual/<work>/<step>-<id>.<ext>`. */
  path: string;
}

/** What a tester has recorded of one step so far. */
export interface ManualStepRow {
  verdict: ManualStepVerdictValue | null;
  note: string | null;
  evidence: ManualEvidenceRow[];
}

export const manualWork = pgTable(
  'manual_work',
  {
    id: idColumn(),
    runTestId: text('run_test_id')
      .notNull()
      .references(() => engineRunTests.id, { onDelete: 'cascade' }),
    clientId: ownerClientColumn(),
    /** The platform's place in the case's `platforms` (0-based). */
    platformIndex: integer('platform_index').notNull(),
    platform: jsonb('platform').$type<ManualPlatformValue>().notNull(),
    status: text('status').$type<ManualWorkStatus>().notNull().default('waiting'),
    dueAt: ts('due_at').notNull(),
    estimateMinutes: integer('estimate_minutes').notNull(),
    /** The operator holding it (a user id; 'operator-token' for the operator token) and their name, until it is released, expires or is submitted. */
    claimedBy: text('claimed_by'),
    claimedByName: text('claimed_by_name'),
    claimedAt: ts('claimed_at'),
    claimExpiresAt: ts('claim_expires_at'),
    /** One entry per step of the case. */
    steps: jsonb('steps').$type<ManualStepRow[]>().notNull(),
    used: jsonb('used').$type<ManualPlatformValue>(),
    /** Who submitted it and when; a not-run piece has neither. */
    testerName: text('tester_name'),
    startedAt: ts('started_at'),
    submittedAt: ts('submitted_at'),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex('manual_work_run_test_platform_key').on(t.runTestId, t.platformIndex),
    index('manual_work_open_idx').on(t.status, t.dueAt),
  ],
);

/** When a client's manual work is due (DEFAULT_MANUAL_SETTINGS when it has no row). */
export const manualSettings = pgTable('manual_settings', {
  clientId: ownerClientColumn().primaryKey(),
  dueHours: integer('due_hours').notNull(),
  workingDaysOnly: boolean('working_days_only').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
