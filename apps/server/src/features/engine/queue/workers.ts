import { sweepOrphanedOffThread } from '@fullstop/engine/sandbox';
import type PgBoss from 'pg-boss';
import type { EngineDeps } from '../deps.ts';
import { executeJob } from '../runs/execute-job.ts';
import { executeGeneratorJob, fetchGeneratorJob, reapStaleGenerators } from '../load/load-generators.ts';
import { LOAD_QUEUE, RUN_QUEUE } from './boss.ts';
import { fetchFairJob } from './fair-fetch.ts';
import { reapStaleAttempts } from './reaper.ts';

/** Workers find jobs queued by other processes by polling; a job queued by this process wakes them at once. */
const POLLING_INTERVAL_MS = 1000;
/** How long stopping waits for the runs in progress to record their aborted attempts. */
const STOP_GRACE_MS = 15_000;

export interface WorkerPool {
  /** Wakes the idle workers (a job was just queued). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * `count` workers in this process, each taking one job at a time (the concurrency limit) in the fair order of
 * fetchFairJob, plus the reaper of dead attempts and the sweeper of processes left by dead supervisors. Stopping
 * aborts the runs in progress: each ends its attempt as an error that is retried later.
 */
export async function startWorkers(deps: EngineDeps, count: number, options: { embedded: boolean }): Promise<WorkerPool> {
  const boss: PgBoss = await deps.boss();
  const shutdown = new AbortController();
  await sweep(deps);
  if (options.embedded) await reapStaleAttempts(deps, { everyRunning: true });

  const sleepers = new Set<() => void>();
  const wake = () => {
    for (const s of [...sleepers]) s();
  };
  const idle = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, POLLING_INTERVAL_MS);
      sleepers.add(done);
    });

  // One fetch at a time in this process: each sees the jobs the previous one made active, so idle workers
  // starting together do not all favour the same client.
  let turn: Promise<unknown> = Promise.resolve();
  const fetchInTurn = () => {
    const next = turn.then(() => fetchFairJob(deps.db));
    turn = next.catch(() => null);
    return next;
  };

  // Load generators first: the ones already taken are waiting for them (issue 12).
  let generatorTurn: Promise<unknown> = Promise.resolve();
  const fetchGenerator = () => {
    const next = generatorTurn.then(() => fetchGeneratorJob(deps.db));
    generatorTurn = next.catch(() => null);
    return next.catch((err: unknown) => {
      deps.log.error({ err }, 'fetching a load generator job failed');
      return null;
    });
  };

  const loop = async () => {
    while (!shutdown.signal.aborted) {
      const generator = await fetchGenerator();
      if (generator) {
        try {
          await executeGeneratorJob(deps, generator.data, shutdown.signal);
          await boss.complete(LOAD_QUEUE, generator.id);
        } catch (err) {
          await boss.fail(LOAD_QUEUE, generator.id, { message: (err as Error).message }).catch((e: unknown) => deps.log.error({ err: e }, 'failing a job failed'));
        }
        continue;
      }
      const job = await fetchInTurn().catch((err: unknown) => {
        deps.log.error({ err }, 'fetching a job failed');
        return null;
      });
      if (!job) {
        await idle();
        continue;
      }
      try {
        await executeJob(deps, job, shutdown.signal);
        await boss.complete(RUN_QUEUE, job.id);
      } catch (err) {
        // pg-boss retries the job while it has retries left (RetryableAttemptError) or records the failure.
        await boss.fail(RUN_QUEUE, job.id, { message: (err as Error).message }).catch((e: unknown) => deps.log.error({ err: e }, 'failing a job failed'));
      }
    }
  };
  const loops = Array.from({ length: count }, () => loop());

  const maintenance = setInterval(() => {
    void reapStaleAttempts(deps, { everyRunning: false }).catch((err: unknown) => deps.log.error({ err }, 'reaper failed'));
    void reapStaleGenerators(deps).catch((err: unknown) => deps.log.error({ err }, 'reaping load generators failed'));
    void sweep(deps);
  }, Math.max(5, deps.config.staleAfterSeconds / 2) * 1000);
  maintenance.unref();
  return {
    wake,
    async stop() {
      clearInterval(maintenance);
      shutdown.abort();
      wake();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled(loops), new Promise((r) => (timer = setTimeout(r, STOP_GRACE_MS)))]);
      clearTimeout(timer);
    },
  };
}

/** Kills browsers and tools of attempts whose supervising process died (e.g. a `fullstop worker` killed -9). */
async function sweep(deps: EngineDeps): Promise<void> {
  const killed = await sweepOrphanedOffThread().catch((err: unknown) => {
    deps.log.error({ err }, 'sweeping orphaned runner processes failed');
    return 0;
  });
  if (killed > 0) deps.log.warn({ killed }, 'killed processes left by runs of a process that died');
}
