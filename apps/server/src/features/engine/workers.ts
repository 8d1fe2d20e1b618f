import { sweepOrphanedOffThread } from '@fullstop/engine/sandbox';
import type PgBoss from 'pg-boss';
import { dispatchLoadGenerators, executeGeneratorJob, fetchGeneratorJob, reapStaleGenerators } from '../load/index.ts';
import { Capacity, fetchFairJob, LOAD_QUEUE, RUN_QUEUE } from '../queue/index.ts';
import { executeJob, reapStaleAttempts } from '../runs/index.ts';
import { expireOverdueManualWork } from '../manual/index.ts';
import type { EngineDeps } from './deps.ts';

/** Workers find jobs queued by other processes (or due later) by polling, one at a time; a job queued here wakes them at once. */
const POLLING_INTERVAL_MS = 1000;
/** How long stopping waits for the runs in progress to record their aborted attempts. */
const STOP_GRACE_MS = 15_000;

export interface WorkerPool {
  /** Wakes the idle workers (a job was just queued). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * `count` workers in this process, each taking one job at a time (the upper bound of attempts at once) in the
 * fair order of fetchFairJob, only jobs that fit the capacity left (queue/capacity.ts: each kind's weight against
 * the process's cores' worth), and the light lane's workers beside them (docs/decisions/0091): the lane's room is
 * only for light jobs, and so is every worker beyond `count`, so a light job starts while heavier ones hold the
 * usual workers. Plus the reaper of dead attempts and the sweeper of processes left by dead
 * supervisors. Stopping aborts the runs in progress: each ends its attempt as an error that is retried later.
 */
export async function startWorkers(deps: EngineDeps, count: number, options: { embedded: boolean }): Promise<WorkerPool> {
  const boss: PgBoss = await deps.boss();
  const shutdown = new AbortController();
  await sweep(deps);
  if (options.embedded) await reapStaleAttempts(deps, { everyRunning: true });

  const { capacity: total, staleAfterSeconds, browserWorkers, lightLane, lightLaneWorkers } = deps.config;
  const capacity = new Capacity(total, { workerId: deps.workerId, staleAfterSeconds, browserWorkers, lightLane, heavyWorkers: count });
  const sleepers = new Set<() => void>();
  const wake = () => {
    for (const s of [...sleepers]) s();
  };
  // One idle worker at a time looks again after the interval (the watch); the others sleep until woken: by a job
  // queued here, a job's end, or a worker that took a job (which hands the watch over). Six workers polling each
  // cost the embedded database 12 queries a second while nothing ran (bench/engine/README.md).
  let watched = false;
  const idle = () =>
    new Promise<void>((resolve) => {
      const watch = !watched;
      if (watch) watched = true;
      const done = () => {
        clearTimeout(timer);
        if (watch) watched = false;
        sleepers.delete(done);
        resolve();
      };
      const timer = watch ? setTimeout(done, POLLING_INTERVAL_MS) : undefined;
      sleepers.add(done);
    });

  // A job's weight is given back as it ends; the workers idle because nothing fitted look again at once.
  const holding = (kind: string | null, weightAdded?: number) => {
    const release = capacity.hold(kind, weightAdded);
    return () => {
      release();
      wake();
    };
  };

  // One fetch at a time in this process: each sees the jobs the previous one made active and the capacity they
  // hold, so idle workers starting together do not all favour the same client nor overfill the machine.
  let turn: Promise<unknown> = Promise.resolve();
  const fetchInTurn = () => {
    const next = turn.then(async () => {
      const job = await fetchFairJob(deps.db, capacity.room());
      return job && { job, release: holding(job.kind, job.weightAdded) };
    });
    turn = next.catch(() => null);
    return next;
  };

  // Load generators first: the ones already taken are waiting for them (issue 12). They count against the
  // capacity but are never held back by it: a generator left waiting would fail its whole test at the gather time.
  let generatorTurn: Promise<unknown> = Promise.resolve();
  const fetchGenerator = () => {
    const next = generatorTurn.then(async () => {
      const job = await fetchGeneratorJob(deps.db);
      return job && { job, release: holding('load') };
    });
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
        const { job, release } = generator;
        // Another worker takes the watch, and the next job if there is one.
        wake();
        try {
          await executeGeneratorJob(deps, job.data, shutdown.signal);
          await boss.complete(LOAD_QUEUE, job.id);
        } catch (err) {
          await boss.fail(LOAD_QUEUE, job.id, { message: (err as Error).message }).catch((e: unknown) => deps.log.error({ err: e }, 'failing a job failed'));
        } finally {
          release();
        }
        continue;
      }
      const taken = await fetchInTurn().catch((err: unknown) => {
        deps.log.error({ err }, 'fetching a job failed');
        return null;
      });
      if (!taken) {
        await idle();
        continue;
      }
      const { job, release } = taken;
      wake();
      try {
        // A load test with several generators is run by their jobs (issue 12); its own job only queues them.
        await executeJob(deps, job, shutdown.signal, (rt) => dispatchLoadGenerators(deps, rt));
        await boss.complete(RUN_QUEUE, job.id);
      } catch (err) {
        // pg-boss retries the job while it has retries left (RetryableAttemptError) or records the failure.
        await boss.fail(RUN_QUEUE, job.id, { message: (err as Error).message }).catch((e: unknown) => deps.log.error({ err: e }, 'failing a job failed'));
      } finally {
        release();
      }
    }
  };
  const loops = Array.from({ length: count + lightLaneWorkers }, () => loop());

  const maintenance = setInterval(() => {
    void reapStaleAttempts(deps, { everyRunning: false }).catch((err: unknown) => deps.log.error({ err }, 'reaper failed'));
    void reapStaleGenerators(deps).catch((err: unknown) => deps.log.error({ err }, 'reaping load generators failed'));
    // Manual cases past their due time end as "not run" (issue 41).
    void expireOverdueManualWork(deps).catch((err: unknown) => deps.log.error({ err }, 'ending overdue manual work failed'));
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
