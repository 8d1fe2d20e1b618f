import { and, eq, lt, sql } from 'drizzle-orm';
import { engineAttempts, engineRunTests } from '../../../db/schema/index.ts';
import type { EngineDeps } from '../deps.ts';
import { finishRunTest } from '../runs/finish.ts';
import { isTerminal, testEventOf } from '../runs/mappers.ts';
import { RUN_QUEUE } from './boss.ts';

/**
 * Finds attempts whose process died (killed, crashed, machine lost): their heartbeat stopped. Each is closed as
 * an error with the reason; the test is then retried through pg-boss while attempts remain, else it ends as an
 * error. `everyRunning` is for the embedded database at start-up: only one process can use it, so whatever
 * still says "running" belonged to a process that is gone.
 */
export async function reapStaleAttempts(deps: EngineDeps, options: { everyRunning: boolean }): Promise<number> {
  const { db } = deps;
  const cutoff = new Date(Date.now() - deps.config.staleAfterSeconds * 1000);
  const stale = await db
    .select()
    .from(engineAttempts)
    .where(options.everyRunning ? eq(engineAttempts.status, 'running') : and(eq(engineAttempts.status, 'running'), lt(engineAttempts.heartbeatAt, cutoff)));
  let reaped = 0;
  for (const a of stale) {
    const reason = `the worker running attempt ${a.attempt} stopped (${a.workerId}, last heartbeat ${a.heartbeatAt.toISOString()}): its process was probably killed`;
    const [closed] = await db
      .update(engineAttempts)
      .set({ status: 'error', error: reason, finishedAt: new Date() })
      .where(and(eq(engineAttempts.id, a.id), eq(engineAttempts.status, 'running')))
      .returning();
    if (!closed) continue; // another process's reaper got there first
    reaped++;
    const [rt] = await db.select().from(engineRunTests).where(eq(engineRunTests.id, a.runTestId)).limit(1);
    if (!rt || isTerminal(rt.status)) continue;
    const boss = await deps.boss();
    if (a.attempt < rt.maxAttempts && rt.jobId) {
      const [queued] = await db
        .update(engineRunTests)
        .set({ status: 'queued', error: `attempt ${a.attempt} was lost; retrying`, progress: null, updatedAt: new Date() })
        .where(eq(engineRunTests.id, rt.id))
        .returning();
      if (queued) deps.bus.emit(rt.clientId, { type: 'test', data: testEventOf(queued) });
      // Failing the active job makes pg-boss schedule its retry now rather than at its expiry.
      await boss.fail(RUN_QUEUE, rt.jobId, { message: reason }).catch(() => {});
      const job = await boss.getJobById(RUN_QUEUE, rt.jobId).catch(() => null);
      if (job && job.state !== 'failed') continue;
    } else if (rt.jobId) {
      await boss.fail(RUN_QUEUE, rt.jobId, { message: reason }).catch(() => {});
    }
    await finishRunTest(deps, rt, { status: 'error', result: null, error: reason, attempt: a.attempt });
  }
  if (options.everyRunning) await failOrphanJobs(deps);
  return reaped;
}

/** Embedded database at start-up: jobs left active by the dead process, taken before any attempt row existed. */
async function failOrphanJobs(deps: EngineDeps): Promise<void> {
  const boss = await deps.boss();
  const result = (await deps.db.execute(
    sql`SELECT id FROM pgboss.job WHERE name = ${RUN_QUEUE} AND state = 'active'`,
  )) as unknown as { rows: { id: string }[] };
  const ids = result.rows.map((r) => r.id);
  for (const id of ids) await boss.fail(RUN_QUEUE, id, { message: 'the server stopped while this job was active' });
}
