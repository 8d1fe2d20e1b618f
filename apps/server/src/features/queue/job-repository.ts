import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { type BossDb, RUN_QUEUE, type RunJobData } from './boss.ts';
import type { FetchRoom } from './capacity.ts';

// The engine's reads and writes of pg-boss's own job table, beyond what pg-boss's API offers, and pg-boss's own
// statements run inside the engine's transactions.

/** One job as a worker takes it: what executeJob needs of pg-boss's row, and its test's kind (null: the test is gone). */
export interface RunJob {
  id: string;
  data: RunJobData;
  retryCount: number;
  retryLimit: number;
  kind: string | null;
  /** What its options add to its kind's weight (weightAddedOfJob), as the fetch weighed it. */
  weightAdded: number;
}

/** What a job's options add to its kind's weight (RunJobData.weightAdded, or an older job's cellWeight; 0 when it has none). */
const weightAddedOfJob = sql`coalesce((j.data->>'weightAdded')::float8, (j.data->>'cellWeight')::float8, 0)`;

/** Each client's count of active jobs, which the fair order reads (the waiting line too: waiting-repository.ts). */
export const held = sql`
  SELECT data->>'clientId' AS client_id, count(*) AS active
  FROM pgboss.job
  WHERE name = ${RUN_QUEUE} AND state = 'active'
  GROUP BY 1`;

/** The fair order (docs/decisions/0050): the client holding the fewest active jobs first, then longest first, then oldest. */
export const FAIR_ORDER = sql`coalesce(h.active, 0), j.priority DESC, j.created_on, j.id`;

/**
 * The same changes to the row as pg-boss's own fetch: active, started, and a retry counted when it ran before.
 * The state is checked again on the locked row: under READ COMMITTED, a fetch that read the job as waiting just
 * before another worker took it and committed locks the taken row next, and PostgreSQL re-checks only the
 * conditions on that row, not those inside a materialized CTE. Without the check both workers ran the job.
 */
function take(next: SQL): SQL {
  return sql`
    WITH next AS (${next})
    UPDATE pgboss.job j SET
      state = 'active',
      started_on = now(),
      retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
    FROM next
    WHERE j.name = ${RUN_QUEUE} AND j.id = next.id AND j.state < 'active'
    RETURNING j.id, j.data, j.retry_count AS "retryCount", j.retry_limit AS "retryLimit", next.kind, ${weightAddedOfJob} AS "weightAdded"`;
}

/**
 * A one-per-machine kind while one runs here (held in memory: its attempt row may not be written yet) or, by an
 * attempt with a fresh heartbeat, in another process on this host.
 */
function busyOnThisMachine(room: FetchRoom): SQL {
  return sql`(
    rt.kind IN (SELECT jsonb_array_elements_text(${room.busyHereJson}::jsonb))
    OR (rt.kind IN (SELECT jsonb_array_elements_text(${room.onePerMachineJson}::jsonb)) AND EXISTS (
      SELECT 1 FROM engine_attempts a JOIN engine_run_tests other ON other.id = a.run_test_id
      WHERE a.status = 'running' AND other.kind = rt.kind
        AND split_part(a.worker_id, ':', 1) = split_part(${room.workerId}, ':', 1)
        AND a.heartbeat_at > now() - make_interval(secs => ${room.staleAfterSeconds})
    ))
  )`;
}

/**
 * The next job in the fair order whose weight fits the room (queue/capacity.ts): a light test goes beside a heavy
 * one rather than waiting behind the next heavy one. A light job (at most `lightWeight`) may also use the light
 * lane's room (`lightFree`), a heavier one only the shared room (`free`): decision 0091. A job heavier than the
 * whole capacity fits when the whole shared room is free (`least(weight, total)`): it runs alone there. A job's
 * weight is its kind's plus what its options add (its data's `weightAdded`: its further cells, decision 0078; a
 * paced load test's pace, 0088). So that passing it over cannot go on for ever (light tests flowing past a
 * Lighthouse run, or past one that needs the whole machine), once the first job in the order has waited
 * `headWaitSeconds` without fitting, nothing else starts here until it does, but for a light job that fits the
 * light lane's own room (`laneFree`), which the first job could never use. The kind comes from the job's test row,
 * so jobs queued before weights existed are weighed the same way; a job whose test is gone weighs nothing.
 */
function nextThatFits(room: FetchRoom): SQL {
  return sql`
    WITH held AS (${held}), candidates AS (
      SELECT j.id, rt.kind,
        least(w.weight, ${room.total}::float8) <= CASE WHEN w.weight <= ${room.lightWeight}::float8 THEN ${room.lightFree}::float8 ELSE ${room.free}::float8 END AS fits,
        w.weight <= ${room.lightWeight}::float8 AND w.weight <= ${room.laneFree}::float8 AS in_lane,
        greatest(j.created_on, j.start_after) < now() - make_interval(secs => ${room.headWaitSeconds}) AS waited,
        row_number() OVER (ORDER BY ${FAIR_ORDER}) AS place
      FROM pgboss.job j
      LEFT JOIN held h ON h.client_id = j.data->>'clientId'
      LEFT JOIN engine_run_tests rt ON rt.id = j.data->>'runTestId'
      CROSS JOIN LATERAL (SELECT coalesce((${room.weightsJson}::jsonb ->> rt.kind)::float8, 0) + ${weightAddedOfJob} AS weight) w
      WHERE j.name = ${RUN_QUEUE} AND j.state < 'active' AND j.start_after < now()
        AND (rt.kind IS NULL OR NOT ${busyOnThisMachine(room)})
    )
    SELECT j.id, c.kind
    FROM candidates c JOIN pgboss.job j ON j.name = ${RUN_QUEUE} AND j.id = c.id
    WHERE j.state < 'active' AND c.fits AND (c.place = 1 OR c.in_lane OR NOT EXISTS (SELECT 1 FROM candidates head WHERE head.place = 1 AND head.waited AND NOT head.fits))
    ORDER BY c.place
    LIMIT 1
    FOR UPDATE OF j SKIP LOCKED`;
}

/** The next job in the fair order, whatever its weight (no capacity). */
const nextInOrder = sql`
  WITH held AS (${held})
  SELECT j.id, rt.kind
  FROM pgboss.job j
  LEFT JOIN held h ON h.client_id = j.data->>'clientId'
  LEFT JOIN engine_run_tests rt ON rt.id = j.data->>'runTestId'
  WHERE j.name = ${RUN_QUEUE} AND j.state < 'active' AND j.start_after < now()
  ORDER BY ${FAIR_ORDER}
  LIMIT 1
  FOR UPDATE OF j SKIP LOCKED`;

/**
 * Takes the next job like pg-boss's own fetch (same row changes: active, started_on, retry_count), but in a fair
 * order: first the jobs of the client holding the fewest active jobs, then pg-boss's order (priority = longest
 * first, then oldest). So one client's four run-alls cannot keep another client's single test waiting behind
 * their whole backlog: the next free worker goes to the client with the least running. docs/decisions/0050.
 * With a room, the first job in that order that fits it (nextThatFits, docs/decisions/0069).
 *
 * The counts are read without a lock: two workers fetching at the same instant may both favour the same client
 * once, which the next fetch evens out. `FOR UPDATE ... SKIP LOCKED` still gives each job to exactly one worker.
 */
export async function fetchFairJob(db: Db, room: FetchRoom | null = null): Promise<RunJob | null> {
  const result = (await db.execute(take(room ? nextThatFits(room) : nextInOrder))) as unknown as { rows: RunJob[] } | RunJob[];
  const rows = Array.isArray(result) ? result : result.rows;
  return rows[0] ?? null;
}

/** Ids of the run jobs pg-boss holds as active (taken by a worker and not yet completed or failed). */
export async function activeJobIds(db: Db): Promise<string[]> {
  const result = (await db.execute(sql`SELECT id FROM pgboss.job WHERE name = ${RUN_QUEUE} AND state = 'active'`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}

/**
 * pg-boss's `db` option over a Drizzle transaction, so a run's rows and its jobs commit or roll back together.
 * pg-boss writes `$1`-style placeholders; each becomes a bound Drizzle parameter in the same place.
 */
export function drizzleBossDb(tx: { execute: (query: SQL) => Promise<unknown> }): BossDb {
  return {
    async executeSql(text, values = []) {
      const pieces = text.split(/\$(\d+)/);
      const parts: SQL[] = pieces.map((piece, i) => (i % 2 === 0 ? sql.raw(piece) : sql`${values[Number(piece) - 1] ?? null}`));
      const result = (await tx.execute(sql.join(parts))) as { rows?: unknown[] } | unknown[];
      return { rows: Array.isArray(result) ? result : (result.rows ?? []) };
    },
  };
}
