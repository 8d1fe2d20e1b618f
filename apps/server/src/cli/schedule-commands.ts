import type { Command } from 'commander';
import { type OperatorSchedule, type OperatorScheduleListResponse, type ScheduleScope, scheduleScopeLabel } from '@fullstop/contracts';
import { clientResourceCommands } from './client-resource.ts';
import { clientFor, OperatorApiError } from './operator-client.ts';

function line(s: OperatorSchedule): string {
  const next = s.paused ? 'paused' : `next ${s.nextRunAt}`;
  return `${s.id}  ${s.cron}  ${s.timezone}  ${scheduleScopeLabel(s.scope)}  ${next}${s.lastRunAt ? `  last run ${s.lastRunAt}` : ''}`;
}

function scopeOf(opts: { group?: string; test?: string }): ScheduleScope {
  if (opts.group !== undefined && opts.test !== undefined) throw new OperatorApiError('give --group or --test, not both', 0, null);
  if (opts.group !== undefined) return { kind: 'group', name: opts.group };
  if (opts.test !== undefined) return { kind: 'test', name: opts.test };
  return { kind: 'all' };
}

/** `fullstop schedule`: a client's test schedules (cron expressions in a time zone). */
export function registerScheduleCommands(program: Command): void {
  const { group: schedule, path, list, remove } = clientResourceCommands(program, 'schedule', 'a client’s test schedules: cron expressions in a time zone', 'schedules');

  list<OperatorScheduleListResponse>('list the client’s schedules with their next run', (res) => {
    if (!res.schedules.length) console.log('No schedules.');
    for (const s of res.schedules) console.log(line(s));
  });

  schedule
    .command('add')
    .description('add a schedule: all tests, or one group (--group) or test (--test)')
    .requiredOption('--client <id>', 'client id')
    .requiredOption('--cron <expression>', 'five fields: minute hour day-of-month month day-of-week, e.g. "0 6 * * 1-5"')
    .option('--tz <zone>', 'IANA time zone, e.g. Europe/Paris', 'UTC')
    .option('--group <name>', 'run this group only')
    .option('--test <name>', 'run this test only')
    .option('--paused', 'add it paused')
    .action(async (opts: { client: string; cron: string; tz: string; group?: string; test?: string; paused?: boolean }, cmd: Command) => {
      const body = { cron: opts.cron, timezone: opts.tz, scope: scopeOf(opts), ...(opts.paused ? { paused: true } : {}) };
      const s = await clientFor(cmd).post<OperatorSchedule>(path(opts.client), body);
      console.log(`schedule ${s.id} added: ${line(s)}`);
    });

  for (const [name, paused] of [['pause', true], ['resume', false]] as const) {
    schedule
      .command(name)
      .description(paused ? 'pause a schedule (it does not run until resumed)' : 'resume a paused schedule (ticks missed meanwhile do not run)')
      .requiredOption('--client <id>', 'client id')
      .argument('<scheduleId>', 'the schedule’s id (see `fullstop schedule list`)')
      .action(async (id: string, opts: { client: string }, cmd: Command) => {
        const s = await clientFor(cmd).request<OperatorSchedule>('PATCH', path(opts.client, id), { paused });
        console.log(`schedule ${s.id} ${paused ? 'paused' : `resumed, next run ${s.nextRunAt}`}`);
      });
  }

  remove('delete a schedule', '<scheduleId>', 'the schedule’s id');
}
