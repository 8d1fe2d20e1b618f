import PgBoss from 'pg-boss';
import type { EngineDeps } from '../engine/index.ts';
import { ensureQueue, pgliteBossDb } from '../queue/index.ts';
import { runScheduleTick } from './schedule-tick.ts';

/** pg-boss's cron puts one job a minute here, across every process; its handler runs the due schedules. */
export const SCHEDULE_TICK_QUEUE = 'fullstop-schedule-tick';

export interface SchedulerOptions {
  /** How often pg-boss's cron monitor checks the schedules (1-45 s; pg-boss's default 30). Tests shorten it. */
  cronMonitorIntervalSeconds?: number;
  /** How often pg-boss moves cron jobs into their queue and this process polls for ticks (1-45 s). */
  pollSeconds?: number;
}

export interface Scheduler {
  stop(): Promise<void>;
}

/**
 * Schedules on pg-boss's own cron (decision: one cron entry, not one per client schedule). pg-boss 10 keeps one
 * cron entry per queue and lets one process per interval evaluate them (`version.cron_on`), then inserts the job
 * with a 60-second singleton key: one tick job a minute, whatever the number of processes. That job's handler
 * (any process) runs `runScheduleTick`, which claims each due schedule in the transaction of its run.
 *
 * A pg-boss of its own: the engine's runs queue keeps `schedule: false` and its own settings.
 */
export async function startScheduler(deps: EngineDeps, options: SchedulerOptions = {}): Promise<Scheduler> {
  const common = {
    schedule: true,
    supervise: false,
    migrate: true,
    cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds ?? 30,
    cronWorkerIntervalSeconds: options.pollSeconds ?? 5,
  } as const;
  const boss =
    deps.raw.kind === 'pglite'
      ? new PgBoss({ ...common, db: pgliteBossDb(deps.raw.pglite) })
      : new PgBoss({ ...common, connectionString: deps.raw.url, max: 2 });
  boss.on('error', (err) => deps.log.error({ err }, 'scheduler error'));
  await boss.start();
  await ensureQueue(boss, SCHEDULE_TICK_QUEUE, { name: SCHEDULE_TICK_QUEUE, policy: 'standard', retryLimit: 2, retryDelay: 5, expireInSeconds: 300 });
  // An upsert: every process may say it, the one row stays.
  await boss.schedule(SCHEDULE_TICK_QUEUE, '* * * * *', {}, { tz: 'UTC' });
  await boss.work(SCHEDULE_TICK_QUEUE, { pollingIntervalSeconds: options.pollSeconds ?? 5, batchSize: 1 }, async () => {
    const result = await runScheduleTick(deps);
    if (result.due > 0) deps.log.info(result, 'schedule tick');
  });
  return {
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 15_000 }).catch(() => {});
    },
  };
}
