import PgBoss from 'pg-boss';
import type { RawDatabase } from '../../db/database.ts';

/** The one queue of the engine: one job per test of a run. */
export const RUN_QUEUE = 'engine-run';

/** Load generators of a load test run by several (issue 12): one job per generator, any worker takes them. */
export const LOAD_QUEUE = 'engine-load-generator';

export interface LoadGeneratorJobData {
  generatorId: string;
  runTestId: string;
  clientId: string;
}

export interface RunJobData {
  runTestId: string;
  clientId: string;
  /**
   * What the test's options add to its kind's weight (`weightAddedBy`: the cells beyond one Chromium cell; negative
   * for a paced load test), written when the job is queued; absent: the kind's weight alone. A job queued before
   * paced load tests were weighed has its cells' part as `cellWeight`, which the fetch reads in its place.
   */
  weightAdded?: number;
}

/** What pg-boss needs of a database: a function that runs SQL and answers `{ rows }`. */
export interface BossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * PGlite as pg-boss's database. pg-boss sends its schema plans as one multi-statement string without
 * parameters, which only PGlite's `exec` (simple protocol) accepts; everything with parameters goes to `query`.
 */
export function pgliteBossDb(pglite: { query: (t: string, v?: unknown[]) => Promise<{ rows: unknown[] }>; exec: (t: string) => Promise<{ rows: unknown[] }[]> }): BossDb {
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) return pglite.query(text, values);
      const results = await pglite.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
  };
}

/**
 * One pg-boss on the application's database. No cron (`schedule: false`) and a slow maintenance loop: the
 * engine's own reaper finds dead attempts by heartbeat, pg-boss's expiry is only the backstop.
 */
export async function startBoss(raw: RawDatabase, onError: (err: Error) => void): Promise<PgBoss> {
  const common = {
    schedule: false,
    supervise: true,
    migrate: true,
    maintenanceIntervalSeconds: 60,
  } as const;
  const boss =
    raw.kind === 'pglite'
      ? new PgBoss({ ...common, db: pgliteBossDb(raw.pglite) })
      : new PgBoss({ ...common, connectionString: raw.url, max: 4 });
  boss.on('error', onError);
  await boss.start();
  for (const queue of [RUN_QUEUE, LOAD_QUEUE]) await ensureQueue(boss, queue, { name: queue, policy: 'standard' });
  return boss;
}

/**
 * Creates the queue unless it is there. Processes starting at once race here: pg-boss's create_queue attaches a
 * partition to one parent table, so two processes creating different queues (runs, load generators, schedule ticks) can deadlock and
 * PostgreSQL aborts one of them, whose queue then does not exist yet. The loser tries again after a short, random
 * pause; seen with two API and two worker processes started together on a new database (test/cluster.test.ts).
 */
export async function ensureQueue(boss: PgBoss, name: string, options: PgBoss.Queue, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (await boss.getQueue(name)) return;
    try {
      // ON CONFLICT DO NOTHING inside: another process having created it meanwhile is not an error.
      await boss.createQueue(name, options);
      return;
    } catch (err) {
      if (attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 200));
    }
  }
}
