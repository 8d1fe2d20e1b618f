import type { ClientSchedule, CreateScheduleRequest, OperatorSchedule, ScheduleScope, UpdateScheduleRequest } from '@fullstop/contracts';
import { testsOf } from '@fullstop/engine';
import type { Db } from '../../db/database.ts';
import { NotFoundError, ValidationError } from '../../lib/errors.ts';
import type { EngineDeps } from '../engine/index.ts';
import { currentSuite } from '../suites/index.ts';
import { assertCron, assertTimezone, nextTick } from './cron.ts';
import { findClientSchedule, insertSchedule, scopeColumns, scopeOf, type ScheduleRow, updateSchedule } from './schedule-repository.ts';

export function clientScheduleOf(row: ScheduleRow, now = new Date()): ClientSchedule {
  return {
    id: row.id,
    cron: row.cron,
    timezone: row.timezone,
    scope: scopeOf(row),
    paused: row.paused,
    nextRunAt: row.paused ? null : nextTick(row.cron, row.timezone, now).toISOString(),
    lastRunAt: row.lastRunAt?.toISOString() ?? null,
  };
}

export function operatorScheduleOf(row: ScheduleRow, now = new Date()): OperatorSchedule {
  return {
    ...clientScheduleOf(row, now),
    clientId: row.clientId,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastRunId: row.lastRunId,
  };
}

/** A group or test scope names one of the current suite's groups or tests. */
async function assertScope(db: Db, clientId: string, scope: ScheduleScope): Promise<void> {
  if (scope.kind === 'all') return;
  const suite = await currentSuite(db, clientId);
  const tests = suite ? testsOf(suite.manifest, suite.dir) : [];
  const known = tests.some((t) => (scope.kind === 'group' ? t.group === scope.name : t.name === scope.name));
  if (!known) throw new ValidationError(`the current suite has no ${scope.kind} "${scope.name}"`, 'scope.name');
}

export async function createSchedule(deps: EngineDeps, clientId: string, body: CreateScheduleRequest, createdBy: string | null): Promise<ScheduleRow> {
  assertTimezone(body.timezone);
  assertCron(body.cron, body.timezone);
  await assertScope(deps.db, clientId, body.scope);
  // lastTickAt defaults to now: ticks before the schedule existed never run.
  return insertSchedule(deps.db, { clientId, cron: body.cron, timezone: body.timezone, ...scopeColumns(body.scope), paused: body.paused ?? false, createdBy });
}

/** Pause, resume or edit. Resuming or changing the cron starts afresh: ticks missed while paused never run. */
export async function changeSchedule(deps: EngineDeps, clientId: string, scheduleId: string, body: UpdateScheduleRequest): Promise<ScheduleRow> {
  const row = await findClientSchedule(deps.db, clientId, scheduleId);
  if (!row) throw new NotFoundError('Schedule not found');
  const timezone = body.timezone ?? row.timezone;
  const cron = body.cron ?? row.cron;
  assertTimezone(timezone);
  assertCron(cron, timezone);
  if (body.scope) await assertScope(deps.db, clientId, body.scope);
  const resumed = row.paused && body.paused === false;
  const retimed = cron !== row.cron || timezone !== row.timezone;
  return updateSchedule(deps.db, row.id, {
    cron,
    timezone,
    ...(body.scope ? scopeColumns(body.scope) : {}),
    ...(body.paused !== undefined ? { paused: body.paused } : {}),
    ...(resumed || retimed ? { lastTickAt: new Date() } : {}),
  });
}
