import { callSiteKey, MAX_CALL_SITES, type ProposedHeal, type RecordedFingerprint } from '@fullstop/contracts';
import type { RunnerSummary } from '@fullstop/engine';
import { and, desc, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineRuns, engineRunTests, engineSuites, healingProposals, locatorFingerprints } from '../../db/schema/index.ts';
import { setCurrentSuite } from '../suites/index.ts';

// SQL of healed locators: the fingerprints of each suite version's call sites, and the proposals heals make.

export type ProposalRow = typeof healingProposals.$inferSelect;
/** A proposal with the versions it names, as the console lists it. */
export type ProposalWithVersions = ProposalRow & { fromVersion: number; proposedVersion: number | null };

/** The fingerprints a browser test of this suite version left, at most MAX_CALL_SITES (the latest first). */
export async function fingerprintsOf(db: Db, suiteId: string, testName: string): Promise<RecordedFingerprint[]> {
  const rows = await db
    .select({ site: locatorFingerprints.site, fingerprint: locatorFingerprints.fingerprint })
    .from(locatorFingerprints)
    .where(and(eq(locatorFingerprints.suiteId, suiteId), eq(locatorFingerprints.testName, testName)))
    .orderBy(desc(locatorFingerprints.updatedAt), locatorFingerprints.siteKey)
    .limit(MAX_CALL_SITES);
  return rows;
}

/**
 * Keeps each call site's latest fingerprint (one per site, the latest passing attempt's), then the test's latest
 * MAX_CALL_SITES only: a version's call sites are bounded by its files, this bounds them whatever they say.
 */
export async function upsertFingerprints(db: Db, owner: { clientId: string; suiteId: string; testName: string }, sites: RecordedFingerprint[]): Promise<void> {
  if (sites.length === 0) return;
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .insert(locatorFingerprints)
      .values(sites.map((s) => ({ ...owner, siteKey: callSiteKey(s.site), site: s.site, fingerprint: s.fingerprint, updatedAt: now })))
      .onConflictDoUpdate({
        target: [locatorFingerprints.suiteId, locatorFingerprints.testName, locatorFingerprints.siteKey],
        set: { site: sql`excluded.site`, fingerprint: sql`excluded.fingerprint`, updatedAt: now },
      });
    const kept = tx
      .select({ id: locatorFingerprints.id })
      .from(locatorFingerprints)
      .where(and(eq(locatorFingerprints.suiteId, owner.suiteId), eq(locatorFingerprints.testName, owner.testName)))
      .orderBy(desc(locatorFingerprints.updatedAt), locatorFingerprints.siteKey)
      .limit(MAX_CALL_SITES);
    await tx
      .delete(locatorFingerprints)
      .where(and(eq(locatorFingerprints.suiteId, owner.suiteId), eq(locatorFingerprints.testName, owner.testName), notInArray(locatorFingerprints.id, kept)));
  });
}

/** Deletes the client's fingerprints last recorded before `cutoff` (retention: the runs they came from are gone). */
export async function deleteOldFingerprints(db: Db, clientId: string, cutoff: Date): Promise<number> {
  const rows = await db
    .delete(locatorFingerprints)
    .where(and(eq(locatorFingerprints.clientId, clientId), lt(locatorFingerprints.updatedAt, cutoff)))
    .returning({ id: locatorFingerprints.id });
  return rows.length;
}

/** A run test as a proposal reads it: its browser cases and their heals are in its summary. */
export interface HealedRunTest {
  id: string;
  testName: string;
  kind: string;
  attempts: number;
  summary: RunnerSummary | null;
}

/** The run's suite version and its browser tests' results (their summaries carry each case's heals). */
export async function runForProposal(db: Db, runId: string): Promise<{ clientId: string; suite: typeof engineSuites.$inferSelect; tests: HealedRunTest[] } | null> {
  const [run] = await db
    .select({ clientId: engineRuns.clientId, suite: engineSuites })
    .from(engineRuns)
    .innerJoin(engineSuites, eq(engineSuites.id, engineRuns.suiteId))
    .where(eq(engineRuns.id, runId))
    .limit(1);
  if (!run) return null;
  return { ...run, tests: await browserTestsOf(db, runId) };
}

/** A run's browser tests with their summaries, in the order they were planned. */
async function browserTestsOf(db: Db, runId: string): Promise<HealedRunTest[]> {
  const tests = await db
    .select({ id: engineRunTests.id, testName: engineRunTests.testName, kind: engineRunTests.kind, attempts: engineRunTests.attempts, summary: engineRunTests.summary })
    .from(engineRunTests)
    .where(and(eq(engineRunTests.runId, runId), eq(engineRunTests.kind, 'browser')))
    .orderBy(engineRunTests.createdAt, engineRunTests.id);
  return tests.map((t) => ({ ...t, summary: t.summary ?? null }));
}

/** The client's browser tests of one run, with their summaries (the client's run detail). */
export async function browserTestsOfRun(db: Db, clientId: string, runId: string): Promise<HealedRunTest[] | null> {
  const [run] = await db.select({ id: engineRuns.id }).from(engineRuns).where(and(eq(engineRuns.id, runId), eq(engineRuns.clientId, clientId))).limit(1);
  if (!run) return null;
  return browserTestsOf(db, runId);
}

/** Which of these heal keys a proposal of the client already holds (waiting, accepted or rejected). */
export async function knownHealKeys(db: Db, clientId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const result = (await db.execute(sql`
    SELECT DISTINCT h->>'key' AS key FROM healing_proposals p, jsonb_array_elements(p.heals) h
    WHERE p.client_id = ${clientId} AND h->>'key' IN (${sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    )})`)) as unknown as { rows: { key: string }[] };
  return new Set(result.rows.map((r) => r.key));
}

/** Claims the run's one proposal; null when another process (or an earlier call) already made it. */
export async function claimProposal(db: Db, row: typeof healingProposals.$inferInsert): Promise<ProposalRow | null> {
  const [inserted] = await db.insert(healingProposals).values(row).onConflictDoNothing({ target: healingProposals.runId }).returning();
  return inserted ?? null;
}

export async function completeProposal(db: Db, id: string, values: { proposedSuiteId: string | null; heals: ProposedHeal[] }): Promise<void> {
  await db.update(healingProposals).set(values).where(eq(healingProposals.id, id));
}

export async function deleteProposal(db: Db, id: string): Promise<void> {
  await db.delete(healingProposals).where(eq(healingProposals.id, id));
}

const fromSuite = engineSuites;
const withVersions = (db: Db) =>
  db
    .select({
      proposal: healingProposals,
      fromVersion: fromSuite.version,
      proposedVersion: sql<number | null>`(SELECT s.version FROM engine_suites s WHERE s.id = ${healingProposals.proposedSuiteId})`,
    })
    .from(healingProposals)
    .innerJoin(fromSuite, eq(fromSuite.id, healingProposals.fromSuiteId));

const flat = (r: { proposal: ProposalRow; fromVersion: number; proposedVersion: number | null }): ProposalWithVersions => ({
  ...r.proposal,
  fromVersion: r.fromVersion,
  proposedVersion: r.proposedVersion === null ? null : Number(r.proposedVersion),
});

/** The client's proposals, newest first (one status, or all). */
export async function proposalsOf(db: Db, clientId: string, status?: ProposalRow['status'], limit = 100): Promise<ProposalWithVersions[]> {
  const rows = await withVersions(db)
    .where(and(eq(healingProposals.clientId, clientId), status ? eq(healingProposals.status, status) : undefined))
    .orderBy(desc(healingProposals.createdAt), desc(healingProposals.id))
    .limit(limit);
  return rows.map(flat);
}

export async function proposalOf(db: Db, clientId: string, id: string): Promise<ProposalWithVersions | null> {
  const [row] = await withVersions(db)
    .where(and(eq(healingProposals.clientId, clientId), eq(healingProposals.id, id)))
    .limit(1);
  return row ? flat(row) : null;
}

/** How many proposals of each of these clients wait for a decision. */
export async function waitingCounts(db: Db, clientIds: string[]): Promise<Map<string, number>> {
  if (clientIds.length === 0) return new Map();
  const rows = await db
    .select({ clientId: healingProposals.clientId, n: sql<number>`count(*)` })
    .from(healingProposals)
    .where(and(inArray(healingProposals.clientId, clientIds), eq(healingProposals.status, 'proposed')))
    .groupBy(healingProposals.clientId);
  return new Map(rows.map((r) => [r.clientId, Number(r.n)]));
}

type Decision = { userId: string | null; by: string; at: Date; note: string | null };

/**
 * Accepts a waiting proposal and makes its version the client's current one (the suites feature's setCurrentSuite),
 * in one transaction with `within` (the audit rows). Null when it no longer waits. Answers the version that was
 * current before.
 */
export function acceptProposal(
  db: Db,
  proposal: Pick<ProposalRow, 'id' | 'clientId' | 'proposedSuiteId'>,
  decision: Decision,
  within: (tx: Db, previous: number | null) => Promise<void>,
): Promise<{ previous: number | null } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(healingProposals)
      .set({ status: 'accepted', decidedBy: decision.userId, decidedByName: decision.by, decidedAt: decision.at, note: decision.note })
      .where(and(eq(healingProposals.id, proposal.id), eq(healingProposals.status, 'proposed')))
      .returning({ id: healingProposals.id });
    if (!row || !proposal.proposedSuiteId) return null;
    // The Suites page's "Make current", inside this transaction.
    const previous = await setCurrentSuite(tx, proposal.clientId, proposal.proposedSuiteId);
    await within(tx, previous);
    return { previous };
  });
}

/** Rejects a waiting proposal, with `within` (the audit row) in the same transaction; null when it no longer waits. */
export function rejectProposal(db: Db, id: string, decision: Decision, within: (tx: Db) => Promise<void>): Promise<ProposalRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(healingProposals)
      .set({ status: 'rejected', decidedBy: decision.userId, decidedByName: decision.by, decidedAt: decision.at, note: decision.note })
      .where(and(eq(healingProposals.id, id), eq(healingProposals.status, 'proposed')))
      .returning();
    if (!row) return null;
    await within(tx);
    return row;
  });
}
