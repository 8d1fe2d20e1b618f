import type { ProcessIsolation, ProcessRole } from '@fullstop/contracts';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Every server process of the installation (API processes and `fullstop worker`s), kept fresh by its
 * heartbeat and deleted when it stops cleanly: the console's System page. Owned by features/system.
 */
export const serverProcesses = pgTable(
  'server_processes',
  {
    /** The engine's worker id (hostname:pid:random), written on every attempt the process runs. */
    id: text('id').primaryKey(),
    role: text('role').$type<ProcessRole>().notNull(),
    host: text('host').notNull(),
    pid: integer('pid').notNull(),
    version: text('version').notNull(),
    workers: integer('workers').notNull(),
    /** How its runners are isolated (decision 0077); null: it runs no tests, or its version did not say. */
    isolation: jsonb('isolation').$type<ProcessIsolation>(),
    startedAt: ts('started_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  },
  (t) => [index('server_processes_last_seen_idx').on(t.lastSeenAt)],
);
