import type { EngineDeps } from '../engine/index.ts';
import { activeJobIds, RUN_QUEUE } from '../queue/index.ts';
import { endStaleAttempt, runningAttempts } from './attempt-repository.ts';
import { finishRunTest } from './finish.ts';
import { isTerminal, testEventOf } from './mappers.ts';
import { getRunTest, updateRunTest } from './run-repository.ts';

/**
 * Finds attempts whose process died (killed, crashed, machine lost): their heartbeat stopped. Each is closed as
 * an error with the reason; the test is then retried through pg-boss while attempts remain, else it ends as an
 * error. `everyRunning` is for the embedded database at start-up: only one process can use it, so whatever
 * still says "running" belonged to a process that is gone.
 */
export async function reapStaleAttempts(deps: EngineDeps, options: { everyRunning: boolean }): Promise<number> {
  const { db } = deps;
  const cutoff = new Date(Date.now() - deps.config.staleAfterSeconds * 1000);
  const stale = await runningAttempts(db, options.everyRunning ? null : cutoff);
  let reaped = 0;
  for (const a of stale) {
    const reason = `the worker running attempt ${a.attempt} stopped (${a.workerId}, last heartbeat ${a.heartbeatAt.toISOString()}): its process was probably killed`;
    const closed = await endStaleAttempt(db, a.id, reason);
    if (!closed) continue; // another process's reaper got there first
    reaped++;
    const rt = await getRunTest(db, a.runTestId);
    if (!rt || isTerminal(rt.status)) continue;
    const boss = await deps.boss();
    if (a.attempt < rt.maxAttempts && rt.jobId) {
      const queued = await updateRunTest(db, rt.id, { status: 'queued', error: `attempt ${a.attempt} was lost; retrying`, progress: null, updatedAt: new Date() });
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
  for (const id of await activeJobIds(deps.db)) await boss.fail(RUN_QUEUE, id, { message: 'the server stopped while this job was active' });
}
