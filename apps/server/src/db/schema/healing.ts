import type { CallSite, ElementFingerprint, HealingProposalStatus, ProposedHeal } from '@fullstop/contracts';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn, users } from './accounts.ts';
import { engineSuites } from './engine.ts';

// Healed locators (issue 42, decision 0101 "The server's half"): what a suite version's locators found when its tests
// last passed, and the suite patches a heal proposes. Owned by the healing feature.

/**
 * One call site's fingerprint for one test of one suite version (the version row: a version never changes, so its
 * call sites are what its files say), from the last passing attempt that reached it. It goes with its version, and
 * with the retention of the runs it came from (`updated_at`).
 */
export const locatorFingerprints = pgTable(
  'locator_fingerprints',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    suiteId: text('suite_id')
      .notNull()
      .references(() => engineSuites.id, { onDelete: 'cascade' }),
    testName: text('test_name').notNull(),
    /** `file:line:column locator` (contracts' callSiteKey). */
    siteKey: text('site_key').notNull(),
    site: jsonb('site').$type<CallSite>().notNull(),
    fingerprint: jsonb('fingerprint').$type<ElementFingerprint>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('locator_fingerprints_suite_test_site_key').on(t.suiteId, t.testName, t.siteKey),
    index('locator_fingerprints_client_updated_idx').on(t.clientId, t.updatedAt),
  ],
);

/**
 * A run's heals as a proposed suite version (at most one per run): the version it ran (`from`), the version with the
 * new locators written in (`proposed`, not current; null when no heal could be written), and the decision. The run
 * is named without a foreign key: a rejection must outlive its run (retention), or the same heal would come back.
 */
export const healingProposals = pgTable(
  'healing_proposals',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    runId: text('run_id').notNull(),
    runTestId: text('run_test_id').notNull(),
    fromSuiteId: text('from_suite_id')
      .notNull()
      .references(() => engineSuites.id, { onDelete: 'cascade' }),
    proposedSuiteId: text('proposed_suite_id').references(() => engineSuites.id, { onDelete: 'set null' }),
    heals: jsonb('heals').$type<ProposedHeal[]>().notNull(),
    status: text('status').$type<HealingProposalStatus>().notNull().default('proposed'),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    /** Who decided, as the console showed it then (an operator token has no user). */
    decidedByName: text('decided_by_name'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    note: text('note'),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('healing_proposals_run_key').on(t.runId), index('healing_proposals_client_created_idx').on(t.clientId, t.createdAt)],
);
