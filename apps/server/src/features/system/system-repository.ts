import { PROCESS_ALIVE_SECONDS, type SystemProcess } from '@fullstop/contracts';
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineAttempts, engineRunTests, serverProcesses } from '../../db/schema/index.ts';

export type NewProcess = typeof serverProcesses.$inferInsert;

/** This process's row: written at start; a restart under the same id refreshes it. */
export async function registerProcess(db: Db, row: NewProcess & { workers: number }): Promise<void> {
  await db
    .insert(serverProcesses)
    .values(row)
    .onConflictDoUpdate({ target: serverProcesses.id, set: { lastSeenAt: sql`now()`, workers: row.workers, isolation: row.isolation ?? null } });
}

/** Rows of processes not heard from for `seconds` (they were killed). */
export async function forgetProcessesSilentFor(db: Db, seconds: number): Promise<void> {
  await db.delete(serverProcesses).where(lt(serverProcesses.lastSeenAt, sql`now() - make_interval(secs => ${seconds})`));
}

export async function touchProcess(db: Db, id: string): Promise<void> {
  await db.update(serverProcesses).set({ lastSeenAt: sql`now()` }).where(eq(serverProcesses.id, id));
}

export async function removeProcess(db: Db, id: string): Promise<void> {
  await db.delete(serverProcesses).where(eq(serverProcesses.id, id));
}

/** Every known process, running ones first, each with the attempts it is running now. */
export async function listProcesses(db: Db): Promise<SystemProcess[]> {
  const rows = await db
    .select({
      id: serverProcesses.id,
      role: serverProcesses.role,
      host: serverProcesses.host,
      pid: serverProcesses.pid,
      version: serverProcesses.version,
      workers: serverProcesses.workers,
      isolation: serverProcesses.isolation,
      startedAt: serverProcesses.startedAt,
      lastSeenAt: serverProcesses.lastSeenAt,
      alive: sql<boolean>`${serverProcesses.lastSeenAt} > now() - make_interval(secs => ${PROCESS_ALIVE_SECONDS})`,
    })
    .from(serverProcesses)
    .orderBy(desc(serverProcesses.lastSeenAt), serverProcesses.role, serverProcesses.host, serverProcesses.pid);
  const ids = rows.map((r) => r.id);
  const running = ids.length
    ? await db
        .select({ workerId: engineAttempts.workerId, count: sql<number>`count(*)::int` })
        .from(engineAttempts)
        .where(and(eq(engineAttempts.status, 'running'), inArray(engineAttempts.workerId, ids)))
        .groupBy(engineAttempts.workerId)
    : [];
  const runningOf = new Map(running.map((r) => [r.workerId, r.count]));
  return rows
    .map((r) => ({ ...r, running: runningOf.get(r.id) ?? 0, startedAt: r.startedAt.toISOString(), lastSeenAt: r.lastSeenAt.toISOString() }))
    // Running ones first; then API processes before workers, each by host and pid: a stable page to scan.
    .sort((a, b) => Number(b.alive) - Number(a.alive) || a.role.localeCompare(b.role) || a.host.localeCompare(b.host) || a.pid - b.pid);
}

/** Run tests waiting for a worker, and running, across every client. */
export async function queueCounts(db: Db): Promise<{ queued: number; running: number }> {
  const rows = await db
    .select({ status: engineRunTests.status, count: sql<number>`count(*)::int` })
    .from(engineRunTests)
    .where(inArray(engineRunTests.status, ['queued', 'running']))
    .groupBy(engineRunTests.status);
  const of = (status: string) => rows.find((r) => r.status === status)?.count ?? 0;
  return { queued: of('queued'), running: of('running') };
}

