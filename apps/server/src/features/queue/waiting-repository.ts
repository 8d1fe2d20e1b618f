import { PROCESS_ALIVE_SECONDS } from '@fullstop/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { RUN_QUEUE } from './boss.ts';
import { FAIR_ORDER, held } from './job-repository.ts';

// The waiting line's reads of pg-boss's job table (with the tests, attempts and processes beside it), and the
// cancel of waiting jobs. The line's start times are played out in waiting-line.ts.

/** A kind's duration is the median of its last this many finished attempts, within RECENT_DAYS. */
const RECENT_ATTEMPTS = 20;
const RECENT_DAYS = 7;

/** A waiting test and its place in the fair order. */
export interface WaitingRow {
  runTestId: string;
  runId: string;
  clientId: string;
  clientName: string;
  testName: string;
  kind: string;
  position: number;
}

export interface LineRow {
  waiting: WaitingRow[];
  running: { kind: string; elapsed: number }[];
  medians: Record<string, number>;
  slots: number;
}

/**
 * The queue as the workers see it, in one query: every waiting test in the fair order of the fetch (the client
 * holding the fewest active jobs first, then longest first, then oldest: job-repository.ts), the running attempts
 * with how long they have run, the median duration of each kind's recent finished attempts, and the workers of
 * the live processes. The start times are then played out in memory (line below): no query per test.
 */
export async function readLine(db: Db): Promise<LineRow> {
  const result = (await db.execute(sql`
    WITH held AS (${held}), waiting AS (
      SELECT rt.id AS "runTestId", rt.run_id AS "runId", rt.client_id AS "clientId", coalesce(c.name, rt.client_id) AS "clientName",
        rt.test_name AS "testName", rt.kind,
        row_number() OVER (ORDER BY ${FAIR_ORDER})::int AS position
      FROM pgboss.job j
      JOIN engine_run_tests rt ON rt.id = j.data->>'runTestId'
      LEFT JOIN clients c ON c.id = rt.client_id
      LEFT JOIN held h ON h.client_id = j.data->>'clientId'
      WHERE j.name = ${RUN_QUEUE} AND j.state < 'active' AND rt.status = 'queued'
    ), running AS (
      SELECT rt.kind, extract(epoch FROM now() - a.started_at)::float8 AS elapsed
      FROM engine_attempts a JOIN engine_run_tests rt ON rt.id = a.run_test_id
      WHERE a.status = 'running'
    ), recent AS (
      SELECT rt.kind, extract(epoch FROM a.finished_at - a.started_at)::float8 AS seconds,
        row_number() OVER (PARTITION BY rt.kind ORDER BY a.finished_at DESC) AS n
      FROM engine_attempts a JOIN engine_run_tests rt ON rt.id = a.run_test_id
      WHERE a.status IN ('passed', 'failed') AND a.finished_at > now() - make_interval(days => ${RECENT_DAYS})
        AND rt.kind IN (SELECT kind FROM waiting UNION SELECT kind FROM running)
    )
    SELECT
      (SELECT coalesce(json_agg(w ORDER BY w.position), '[]'::json) FROM waiting w) AS waiting,
      (SELECT coalesce(json_agg(r), '[]'::json) FROM running r) AS running,
      (SELECT coalesce(json_object_agg(kind, seconds), '{}'::json) FROM (
        SELECT kind, percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS seconds FROM recent WHERE n <= ${RECENT_ATTEMPTS} GROUP BY kind
      ) m) AS medians,
      (SELECT coalesce(sum(workers), 0)::int FROM server_processes WHERE last_seen_at > now() - make_interval(secs => ${PROCESS_ALIVE_SECONDS})) AS slots
  `)) as unknown as { rows: LineRow[] } | LineRow[];
  const rows = Array.isArray(result) ? result : result.rows;
  const row = rows[0]!;
  // PGlite and node-postgres both parse json columns; a driver that does not would hand strings.
  const parse = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
  return { waiting: parse(row.waiting), running: parse(row.running), medians: parse(row.medians), slots: Number(row.slots) };
}

/**
 * Cancels the jobs of cancelled tests that no worker has taken yet, as pg-boss's own cancel does (state
 * `cancelled`, which the fetch never takes: it takes only states before `active`). A job already taken is left to
 * its worker, which stops its attempt and completes it. Run it in the transaction that cancels the tests.
 */
export async function cancelWaitingJobs(db: Pick<Db, 'execute'>, jobIds: readonly string[]): Promise<void> {
  if (jobIds.length === 0) return;
  await db.execute(sql`
    UPDATE pgboss.job SET state = 'cancelled', completed_on = now()
    WHERE name = ${RUN_QUEUE} AND state < 'active' AND id IN (${sql.join(
      jobIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
}
