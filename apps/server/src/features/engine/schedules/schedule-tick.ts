import { AppError } from '../../../lib/errors.ts';
import type { EngineDeps } from '../deps.ts';
import { queueRun, RunNotClaimedError } from '../runs/queue-runs.ts';
import { dueTick } from './cron.ts';
import { activeSchedules, claimTick, type ScheduleRow } from './schedule-repository.ts';

/** Runs queued at once by one tick: enough to overlap the round trips, few enough to leave the pool to the API. */
const TICK_CONCURRENCY = 8;

export interface TickResult {
  due: number;
  queued: number;
  /** Due, but taken by another process first (or paused meanwhile). */
  skipped: number;
  /** Due, but could not run (no suite, the group or test is gone): the tick is consumed and logged. */
  failed: number;
}

/**
 * One tick of the schedules, run by the pg-boss cron job (one job a minute across every process). Each schedule
 * whose latest cron time (at or before `now`) is newer than the tick it last acted on gets one run: after
 * downtime, however many ticks were missed, that is one run. The claim commits with the run (queueRun's
 * transaction), so two processes handling the same tick start one run between them.
 */
export async function runScheduleTick(deps: EngineDeps, now = new Date()): Promise<TickResult> {
  const due: { row: ScheduleRow; tick: Date }[] = [];
  for (const row of await activeSchedules(deps.db)) {
    let tick: Date;
    try {
      tick = dueTick(row.cron, row.timezone, now);
    } catch (err) {
      deps.log.error({ err, scheduleId: row.id }, 'schedule has an unreadable cron');
      continue;
    }
    if (tick > row.lastTickAt) due.push({ row, tick });
  }
  const result: TickResult = { due: due.length, queued: 0, skipped: 0, failed: 0 };
  let next = 0;
  const lane = async () => {
    while (next < due.length) {
      const { row, tick } = due[next++]!;
      const scope = row.scopeKind === 'test' ? { testName: row.scopeName! } : row.scopeKind === 'group' ? { groupName: row.scopeName! } : {};
      try {
        await queueRun(deps, row.clientId, scope, { trigger: 'schedule', requestedBy: null }, (tx, runId) => claimTick(tx, row.id, tick, { id: runId }));
        result.queued++;
      } catch (err) {
        if (err instanceof RunNotClaimedError) {
          result.skipped++;
        } else if (err instanceof AppError) {
          // Nothing to run (no suite yet, the test is gone): consume the tick so it is not retried every minute.
          result.failed++;
          await claimTick(deps.db, row.id, tick);
          deps.log.warn({ scheduleId: row.id, clientId: row.clientId, reason: err.message }, 'scheduled run not started');
        } else {
          throw err;
        }
      }
    }
  };
  // The embedded database has one connection: one run at a time there.
  const lanes = deps.raw.kind === 'pglite' ? 1 : TICK_CONCURRENCY;
  await Promise.all(Array.from({ length: Math.min(lanes, due.length) }, lane));
  return result;
}
