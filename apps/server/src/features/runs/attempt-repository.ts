import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineAttempts } from '../../db/schema/index.ts';

// Attempts of run tests (engine_attempts): every try is kept, with its worker, log and heartbeat.

export type AttemptRow = typeof engineAttempts.$inferSelect;
type AttemptEnd = Pick<AttemptRow, 'status' | 'error'>;

/** Records an attempt as running on this worker; a job taken again after a crash restarts its row. */
export async function startAttempt(db: Db, runTestId: string, attempt: number, workerId: string, logPath: string): Promise<AttemptRow> {
  const [row] = await db
    .insert(engineAttempts)
    .values({ runTestId, attempt, workerId, logPath })
    .onConflictDoUpdate({
      target: [engineAttempts.runTestId, engineAttempts.attempt],
      set: { workerId, status: 'running', startedAt: new Date(), heartbeatAt: new Date(), error: null, finishedAt: null },
    })
    .returning();
  return row!;
}

/**
 * Proves the attempt alive, and reads whether its test still wants it: 'lost' when the attempt is no longer running
 * (a reaper gave it up), 'cancelled' when someone cancelled its test (cancel-runs.ts, maybe in another process).
 */
export async function recordHeartbeat(db: Db, attemptId: string): Promise<'alive' | 'lost' | 'cancelled'> {
  const rows = await db
    .update(engineAttempts)
    .set({ heartbeatAt: new Date() })
    .where(and(eq(engineAttempts.id, attemptId), eq(engineAttempts.status, 'running')))
    .returning({ testStatus: sql<string | null>`(SELECT rt.status FROM engine_run_tests rt WHERE rt.id = ${engineAttempts.runTestId})` });
  if (rows.length === 0) return 'lost';
  return rows[0]!.testStatus === 'cancelled' ? 'cancelled' : 'alive';
}

/** Ends a running attempt. False when it no longer was: a reaper gave it up and owns its test now. */
export async function endAttempt(db: Db, attemptId: string, end: AttemptEnd): Promise<boolean> {
  const rows = await db
    .update(engineAttempts)
    .set({ ...end, finishedAt: new Date() })
    .where(and(eq(engineAttempts.id, attemptId), eq(engineAttempts.status, 'running')))
    .returning({ id: engineAttempts.id });
  return rows.length > 0;
}

/** Ends a stale attempt as an error, unless another process's reaper did first (then null). */
export async function endStaleAttempt(db: Db, attemptId: string, error: string): Promise<AttemptRow | null> {
  const [row] = await db
    .update(engineAttempts)
    .set({ status: 'error', error, finishedAt: new Date() })
    .where(and(eq(engineAttempts.id, attemptId), eq(engineAttempts.status, 'running')))
    .returning();
  return row ?? null;
}

/** Running attempts whose last heartbeat is before `heartbeatBefore`; null: every running one. */
export function runningAttempts(db: Db, heartbeatBefore: Date | null): Promise<AttemptRow[]> {
  const running = eq(engineAttempts.status, 'running');
  return db
    .select()
    .from(engineAttempts)
    .where(heartbeatBefore ? and(running, lt(engineAttempts.heartbeatAt, heartbeatBefore)) : running);
}

export function attemptsOf(db: Db, runTestId: string): Promise<AttemptRow[]> {
  return db.select().from(engineAttempts).where(eq(engineAttempts.runTestId, runTestId)).orderBy(asc(engineAttempts.attempt));
}
