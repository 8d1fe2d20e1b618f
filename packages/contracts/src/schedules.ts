import { z } from 'zod';
import { idString } from './common.ts';

/**
 * Schedules (issue 10): an operator sets, per client, cron expressions in a time zone that run the whole suite,
 * one group or one test. The client sees them (read-only) with the next run. A scheduled run is a run like any
 * other, with the trigger "schedule".
 */
export const scheduleScopeKind = z.enum(['all', 'group', 'test']);
export type ScheduleScopeKind = z.infer<typeof scheduleScopeKind>;

/** Five fields (minute hour day-of-month month day-of-week): the finest tick is one minute. */
export const CRON_MAX_CHARS = 120;

export const scheduleScope = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('all') }),
  z.strictObject({ kind: z.literal('group'), name: z.string({ error: 'scope.name is required (the group)' }).trim().min(1, { error: 'scope.name is required (the group)' }).max(200) }),
  z.strictObject({ kind: z.literal('test'), name: z.string({ error: 'scope.name is required (the test)' }).trim().min(1, { error: 'scope.name is required (the test)' }).max(200) }),
], { error: 'scope.kind must be all, group or test' });
export type ScheduleScope = z.infer<typeof scheduleScope>;

const cronField = z
  .string({ error: 'cron is required, e.g. "0 6 * * *" (06:00 every day)' })
  .trim()
  .min(1, { error: 'cron is required, e.g. "0 6 * * *" (06:00 every day)' })
  .max(CRON_MAX_CHARS, { error: `cron must be at most ${CRON_MAX_CHARS} characters` });
const timezoneField = z
  .string({ error: 'timezone is required, e.g. "Europe/Paris" or "UTC"' })
  .trim()
  .min(1, { error: 'timezone is required, e.g. "Europe/Paris" or "UTC"' })
  .max(64, { error: 'timezone must be at most 64 characters' });

export const createScheduleRequest = z.strictObject({
  cron: cronField,
  timezone: timezoneField,
  scope: scheduleScope,
  paused: z.boolean().optional(),
});
export type CreateScheduleRequest = z.infer<typeof createScheduleRequest>;

/** Pause, resume or edit: every field is optional. */
export const updateScheduleRequest = createScheduleRequest.partial();
export type UpdateScheduleRequest = z.infer<typeof updateScheduleRequest>;

export const scheduleParams = z.object({ id: idString, scheduleId: idString });

/** What the client sees of a schedule. */
export const clientSchedule = z.object({
  id: z.string(),
  cron: z.string(),
  timezone: z.string(),
  scope: scheduleScope,
  paused: z.boolean(),
  /** ISO time of the next run; null while paused. */
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
});
export type ClientSchedule = z.infer<typeof clientSchedule>;

/** What an operator sees: also who made it, when, and the last run it started. */
export const operatorSchedule = clientSchedule.extend({
  clientId: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  lastRunId: z.string().nullable(),
});
export type OperatorSchedule = z.infer<typeof operatorSchedule>;

export const clientScheduleListResponse = z.object({
  schedules: z.array(clientSchedule),
  /** The soonest next run over the schedules that are not paused; null without one. */
  nextRunAt: z.string().nullable(),
});
export type ClientScheduleListResponse = z.infer<typeof clientScheduleListResponse>;

export const operatorScheduleListResponse = z.object({ schedules: z.array(operatorSchedule) });
export type OperatorScheduleListResponse = z.infer<typeof operatorScheduleListResponse>;

/** Human wording of a scope, shared by the portal, the console and the CLI. */
export function scheduleScopeLabel(scope: ScheduleScope): string {
  return scope.kind === 'all' ? 'All tests' : scope.kind === 'group' ? `Group: ${scope.name}` : `Test: ${scope.name}`;
}
