import type { Db } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import type { EngineDeps } from '../engine/index.ts';
import { drizzleBossDb } from '../queue/index.ts';
import { runEventOf, testEventOf } from '../runs/index.ts';
import { planManualWork, planRunTests, runScopeText, testsOfScope } from '../runs/index.ts';
import { currentSuites, type SuiteRow } from '../suites/index.ts';
import { dueTick } from './cron.ts';
import { activeSchedules, claimDueTicks, insertScheduledRuns, insertScheduledTests, lastDurationRows, recordScheduledRuns, type ScheduleRow } from './schedule-repository.ts';

/** Schedules queued per transaction: a few round trips each, whatever their number, under PostgreSQL's parameter limit. */
const BATCH = 200;

export interface TickResult {
  due: number;
  queued: number;
  /** Due, but taken by another process first (or paused or deleted meanwhile). */
  skipped: number;
  /** Due, but nothing to run (no suite, the group or test is gone): the tick is consumed and logged. */
  failed: number;
}

type Due = { row: ScheduleRow; tick: Date };

/**
 * One tick of the schedules, run by the pg-boss cron job (one job a minute across every process). Each schedule
 * whose latest cron time (at or before `now`) is newer than the tick it last acted on gets one run: after
 * downtime, however many ticks were missed, that is one run. Claims commit with the runs and their jobs (one
 * transaction per batch), so two processes handling the same tick start one run per schedule between them.
 */
export async function runScheduleTick(deps: EngineDeps, now = new Date()): Promise<TickResult> {
  const due: Due[] = [];
  // cron-parser is slow in a time zone (milliseconds a call): schedules sharing a cron and zone share the answer.
  const ticks = new Map<string, Date | null>();
  for (const row of await activeSchedules(deps.db)) {
    const key = `${row.timezone} ${row.cron}`;
    let tick = ticks.get(key);
    if (tick === undefined) {
      try {
        tick = dueTick(row.cron, row.timezone, now);
      } catch (err) {
        deps.log.error({ err, scheduleId: row.id }, 'schedule has an unreadable cron');
        tick = null;
      }
      ticks.set(key, tick);
    }
    if (tick && tick > row.lastTickAt) due.push({ row, tick });
  }
  const result: TickResult = { due: due.length, queued: 0, skipped: 0, failed: 0 };
  for (let i = 0; i < due.length; i += BATCH) await queueBatch(deps, due.slice(i, i + BATCH), result);
  return result;
}

async function queueBatch(deps: EngineDeps, batch: Due[], result: TickResult): Promise<void> {
  const clientIds = [...new Set(batch.map((d) => d.row.clientId))];
  const suites = new Map((await currentSuites(deps.db, clientIds)).map((s) => [s.clientId, s]));
  const durations = await lastDurationsOf(deps.db, clientIds);
  const planned: { due: Due; suite: SuiteRow; runId: string; scope: string; tests: ReturnType<typeof planRunTests> }[] = [];
  const nothingToRun: Due[] = [];
  for (const d of batch) {
    const suite = suites.get(d.row.clientId);
    try {
      if (!suite) throw new AppError(404, 'NOT_FOUND', 'No tests available: this client has no test suite yet');
      const scope = d.row.scopeKind === 'test' ? { testName: d.row.scopeName! } : d.row.scopeKind === 'group' ? { groupName: d.row.scopeName! } : {};
      const runId = crypto.randomUUID();
      planned.push({ due: d, suite, runId, scope: runScopeText(scope), tests: planRunTests(deps, d.row.clientId, runId, testsOfScope(suite, scope), durations.get(d.row.clientId) ?? new Map()) });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      nothingToRun.push(d);
      deps.log.warn({ scheduleId: d.row.id, clientId: d.row.clientId, reason: err.message }, 'scheduled run not started');
    }
  }
  const boss = planned.length ? await deps.boss() : null;
  const written = await deps.db.transaction(async (tx) => {
    // Only what is still due: a second process waits here for the first's commit and finds the ticks taken.
    const claimedIds = await claimDueTicks(tx, batch.map((d) => ({ id: d.row.id, tick: d.tick })));
    const runs = planned.filter((p) => claimedIds.has(p.due.row.id));
    result.skipped += batch.length - claimedIds.size;
    result.failed += nothingToRun.filter((d) => claimedIds.has(d.row.id)).length;
    if (runs.length === 0) return { runs: [], tests: [] };
    const insertedRuns = await insertScheduledRuns(
      tx,
      runs.map((p) => ({ id: p.runId, clientId: p.due.row.clientId, suiteId: p.suite.id, scope: p.scope, trigger: 'schedule' as const, requestedBy: null })),
    );
    const testRows = runs.flatMap((p) => p.tests.map((t) => t.row));
    const insertedTests = testRows.length ? await insertScheduledTests(tx, testRows) : [];
    const jobs = runs.flatMap((p) => p.tests.flatMap((t) => (t.job ? [t.job] : [])));
    if (jobs.length) await boss!.insert(jobs, { db: drizzleBossDb(tx) });
    // A schedule's manual cases wait for a tester (issue 41), due by the client's turnaround from now.
    for (const p of runs) await planManualWork(tx, p.due.row.clientId, p.tests.filter((t) => !t.job).map((t) => ({ runTestId: t.row.id, options: t.options })), new Date());
    await recordScheduledRuns(tx, runs.map((p) => ({ scheduleId: p.due.row.id, runId: p.runId })));
    return { runs: insertedRuns, tests: insertedTests };
  });
  result.queued += written.runs.length;
  if (written.runs.length === 0) return;
  deps.wakeWorkers();
  for (const run of written.runs) deps.bus.emit(run.clientId, { type: 'run', data: runEventOf(run) });
  for (const rt of written.tests) deps.bus.emit(rt.clientId, { type: 'test', data: testEventOf(rt) });
}

/** lastDurations (run-repository) for many clients in one query. */
async function lastDurationsOf(db: Db, clientIds: string[]): Promise<Map<string, Map<string, number>>> {
  const rows = await lastDurationRows(db, clientIds);
  const byClient = new Map<string, Map<string, number>>();
  for (const r of rows) {
    let m = byClient.get(r.clientId);
    if (!m) byClient.set(r.clientId, (m = new Map()));
    m.set(r.testName, Math.round((r.durationMs ?? 0) / 1000));
  }
  return byClient;
}
