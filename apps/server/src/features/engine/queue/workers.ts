import type PgBoss from 'pg-boss';
import type { EngineDeps } from '../deps.ts';
import { executeJob } from '../runs/execute-job.ts';
import { reapStaleAttempts } from './reaper.ts';
import { RUN_QUEUE, type RunJobData } from './boss.ts';

/** pg-boss fetches by polling; a job queued by this process wakes its workers at once instead. */
const POLLING_INTERVAL_SECONDS = 1;

export interface WorkerPool {
  stop(): Promise<void>;
}

/**
 * `count` workers in this process, each taking one job at a time (the concurrency limit), plus the reaper of
 * dead attempts. Stopping aborts the runs in progress: each ends its attempt as an error that is retried later.
 */
export async function startWorkers(deps: EngineDeps, count: number, options: { embedded: boolean }): Promise<WorkerPool> {
  const boss: PgBoss = await deps.boss();
  const shutdown = new AbortController();
  if (options.embedded) await reapStaleAttempts(deps, { everyRunning: true });
  for (let i = 0; i < count; i++) {
    const id = await boss.work<RunJobData>(
      RUN_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: POLLING_INTERVAL_SECONDS, includeMetadata: true },
      async ([job]) => {
        if (job) await executeJob(deps, job, shutdown.signal);
      },
    );
    deps.workerIds.push(id);
  }
  const reaper = setInterval(
    () => void reapStaleAttempts(deps, { everyRunning: false }).catch((err: unknown) => deps.log.error({ err }, 'reaper failed')),
    Math.max(5, deps.config.staleAfterSeconds / 2) * 1000,
  );
  reaper.unref();
  return {
    async stop() {
      clearInterval(reaper);
      shutdown.abort();
      await boss.offWork(RUN_QUEUE).catch(() => {});
      deps.workerIds.length = 0;
    },
  };
}
