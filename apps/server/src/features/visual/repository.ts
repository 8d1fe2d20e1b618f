import { and, asc, count, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineRunTests, visualBaselines, visualCandidates } from '../../db/schema/index.ts';

// Visual baselines (versioned per client × key) and the candidates runs offer (visual_baselines, visual_candidates).

export type BaselineRow = typeof visualBaselines.$inferSelect;
export type CandidateRow = typeof visualCandidates.$inferSelect;
export type NewCandidate = typeof visualCandidates.$inferInsert;

/** The current baseline of each key of a client's test (a test's keys are known only once it ran). */
export function currentBaselinesOfTest(db: Db, clientId: string, testName: string): Promise<BaselineRow[]> {
  return db
    .select()
    .from(visualBaselines)
    .where(and(eq(visualBaselines.clientId, clientId), eq(visualBaselines.testName, testName), eq(visualBaselines.isCurrent, true)));
}

/** The current baselines of these keys of a client, by key. */
export async function currentBaselines(db: Db, clientId: string, keys: string[]): Promise<Map<string, BaselineRow>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select()
    .from(visualBaselines)
    .where(and(eq(visualBaselines.clientId, clientId), inArray(visualBaselines.key, keys), eq(visualBaselines.isCurrent, true)));
  return new Map(rows.map((r) => [r.key, r]));
}

/** A run test's candidates, replacing what an earlier call wrote for it (the test is finished once). */
export async function insertCandidates(db: Db, rows: NewCandidate[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(visualCandidates).values(rows).onConflictDoNothing({ target: [visualCandidates.runTestId, visualCandidates.key] });
}

export function candidatesOfRun(db: Db, clientId: string, runId: string): Promise<CandidateRow[]> {
  return db
    .select()
    .from(visualCandidates)
    .where(and(eq(visualCandidates.clientId, clientId), eq(visualCandidates.runId, runId)))
    .orderBy(asc(visualCandidates.createdAt));
}

/** One candidate, only when it is this client's and of this run: anything else is "not found". */
export async function findCandidate(db: Db, clientId: string, runId: string, candidateId: string): Promise<CandidateRow | null> {
  const [row] = await db
    .select()
    .from(visualCandidates)
    .where(and(eq(visualCandidates.id, candidateId), eq(visualCandidates.clientId, clientId), eq(visualCandidates.runId, runId)))
    .limit(1);
  return row ?? null;
}

/** The visual run tests of a run, oldest first. */
export function visualRunTests(db: Db, clientId: string, runId: string) {
  return db
    .select()
    .from(engineRunTests)
    .where(and(eq(engineRunTests.clientId, clientId), eq(engineRunTests.runId, runId), eq(engineRunTests.kind, 'visual')))
    .orderBy(asc(engineRunTests.createdAt));
}

/**
 * Makes the candidate the key's current baseline, as its next version, and marks it approved: one transaction, the
 * key's rows locked so two approvals of one key number their versions one after the other.
 */
export async function approveCandidate(
  db: Db,
  candidate: CandidateRow,
  values: { artifactKey: string; userId: string | null; by: string; at: Date },
  /** Runs in the same transaction once the rows are written (the audit row): its failure undoes the approval. */
  within: (tx: Db, done: { baseline: BaselineRow; candidate: CandidateRow }) => Promise<void>,
): Promise<{ baseline: BaselineRow; candidate: CandidateRow } | null> {
  return db.transaction(async (tx) => {
    // Decided meanwhile (a second click, another operator): nothing changes.
    const [claimed] = await tx
      .update(visualCandidates)
      .set({ status: 'approved', decidedBy: values.userId, decidedByName: values.by, decidedAt: values.at })
      .where(and(eq(visualCandidates.id, candidate.id), ne(visualCandidates.status, 'approved')))
      .returning();
    if (!claimed) return null;
    const versions = await tx
      .select({ version: visualBaselines.version })
      .from(visualBaselines)
      .where(and(eq(visualBaselines.clientId, candidate.clientId), eq(visualBaselines.key, candidate.key)))
      .orderBy(desc(visualBaselines.version))
      .for('update');
    const version = (versions[0]?.version ?? 0) + 1;
    await tx
      .update(visualBaselines)
      .set({ isCurrent: false })
      .where(and(eq(visualBaselines.clientId, candidate.clientId), eq(visualBaselines.key, candidate.key), eq(visualBaselines.isCurrent, true)));
    const [baseline] = await tx
      .insert(visualBaselines)
      .values({
        clientId: candidate.clientId,
        key: candidate.key,
        testName: candidate.testName,
        page: candidate.page,
        engine: candidate.engine,
        device: candidate.device,
        version,
        sha256: candidate.sha256,
        width: candidate.width,
        height: candidate.height,
        artifactKey: values.artifactKey,
        runId: candidate.runId,
        runTestId: candidate.runTestId,
        attempt: candidate.attempt,
        candidateId: candidate.id,
        approvedBy: values.userId,
        approvedByName: values.by,
        approvedAt: values.at,
        isCurrent: true,
      })
      .returning();
    const done = { baseline: baseline!, candidate: claimed };
    await within(tx, done);
    return done;
  });
}

export async function rejectCandidate(
  db: Db,
  id: string,
  values: { userId: string | null; by: string; at: Date; note: string | null; bugId?: string },
  /** Runs in the same transaction (the audit row): its failure undoes the rejection. */
  within: (tx: Db, rejected: CandidateRow) => Promise<void>,
): Promise<CandidateRow | null> {
  return db.transaction(async (tx) => {
    // Only a pending shot is rejected: one approved meanwhile stays approved.
    const [row] = await tx
      .update(visualCandidates)
      .set({ status: 'rejected', decidedBy: values.userId, decidedByName: values.by, decidedAt: values.at, note: values.note, ...(values.bugId ? { bugId: values.bugId } : {}) })
      .where(and(eq(visualCandidates.id, id), eq(visualCandidates.status, 'pending')))
      .returning();
    if (!row) return null;
    await within(tx, row);
    return row;
  });
}

export async function setCandidateBug(db: Db, id: string, bugId: string): Promise<CandidateRow | null> {
  const [row] = await db.update(visualCandidates).set({ bugId }).where(eq(visualCandidates.id, id)).returning();
  return row ?? null;
}

/** How many shots of each of these runs wait for a decision (runs without any are left out). */
export async function pendingCountsOfRuns(db: Db, runIds: string[]): Promise<Map<string, number>> {
  if (runIds.length === 0) return new Map();
  const rows = await db
    .select({ runId: visualCandidates.runId, n: count() })
    .from(visualCandidates)
    .where(and(inArray(visualCandidates.runId, runIds), eq(visualCandidates.status, 'pending')))
    .groupBy(visualCandidates.runId);
  return new Map(rows.map((r) => [r.runId, Number(r.n)]));
}
