import type { ScheduleScopeKind } from '@fullstop/contracts';
import { boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn } from './accounts.ts';
import { engineRuns } from './engine.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A client's schedule (issue 10): a cron expression in a time zone that runs the whole suite, one group or one
 * test. Set by operators; the client reads it. `lastTickAt` is the cron time last acted on: a tick claims the
 * schedule by moving it forward (in the transaction that queues the run), so one tick never starts two runs and
 * after downtime only the latest missed tick runs.
 */
export const clientSchedules = pgTable(
  'client_schedules',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    cron: text('cron').notNull(),
    timezone: text('timezone').notNull(),
    scopeKind: text('scope_kind').$type<ScheduleScopeKind>().notNull(),
    /** The group's or the test's name; null for 'all'. */
    scopeName: text('scope_name'),
    paused: boolean('paused').notNull().default(false),
    /** The operator's user id; null for the operator token. */
    createdBy: text('created_by'),
    createdAt: createdAtColumn(),
    /** The cron time acted on last (created, resumed or edited counts as acted on: earlier ticks never run). */
    lastTickAt: ts('last_tick_at').notNull().defaultNow(),
    lastRunId: text('last_run_id').references(() => engineRuns.id, { onDelete: 'set null' }),
    lastRunAt: ts('last_run_at'),
  },
  (t) => [index('client_schedules_client_idx').on(t.clientId), index('client_schedules_active_idx').on(t.paused)],
);
