import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/database.ts';
import { RUN_QUEUE, type RunJobData } from './boss.ts';

// The engine's reads and writes of pg-boss's own job table, beyond what pg-boss's API offers.

/** One job as a worker takes it: what executeJob needs of pg-boss's row. */
export interface RunJob {
  id: string;
  data: RunJobData;
  retryCount: number;
  retryLimit: number;
}

/**
 * Takes the next job like pg-boss's own fetch (same row changes: active, started_on, retry_count), but in a fair
 * order: first the jobs of the client holding the fewest active jobs, then pg-boss's order (priority = longest
 * first, then oldest). So one client's four run-alls cannot keep another client's single test waiting behind
 * their whole backlog: the next free worker goes to the client with the least running. docs/decisions/0050.
 *
 * The counts are read without a lock: two workers fetching at the same instant may both favour the same client
 * once, which the next fetch evens out. `FOR UPDATE ... SKIP LOCKED` still gives each job to exactly one worker.
 */
export async function fetchFairJob(db: Db): Promise<RunJob | null> {
  const result = (await db.execute(sql`
    WITH held AS (
      SELECT data->>'clientId' AS client_id, count(*) AS active
      FROM pgboss.job
      WHERE name = ${RUN_QUEUE} AND state = 'active'
      GROUP BY 1
    ), next AS (
      SELECT j.id
      FROM pgboss.job j
      LEFT JOIN held h ON h.client_id = j.data->>'clientId'
      WHERE j.name = ${RUN_QUEUE} AND j.state < 'active' AND j.start_after < now()
      ORDER BY coalesce(h.active, 0), j.priority DESC, j.created_on, j.id
      LIMIT 1
      FOR UPDATE OF j SKIP LOCKED
    )
    UPDATE pgboss.job j SET
      state = 'active',
      started_on = now(),
      retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
    FROM next
    WHERE j.name = ${RUN_QUEUE} AND j.id = next.id
    RETURNING j.id, j.data, j.retry_count AS "retryCount", j.retry_limit AS "retryLimit"
  `)) as unknown as { rows: RunJob[] } | RunJob[];
  const rows = Array.isArray(result) ? result : result.rows;
  return rows[0] ?? null;
}

/** Ids of the run jobs pg-boss holds as active (taken by a worker and not yet completed or failed). */
export async function activeJobIds(db: Db): Promise<string[]> {
  const result = (await db.execute(sql`SELECT id FROM pgboss.job WHERE name = ${RUN_QUEUE} AND state = 'active'`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}
