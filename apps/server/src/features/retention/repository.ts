import type { UploadPlatform } from '@fullstop/contracts';
import { asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { auditEvents, clients } from '../../db/schema/index.ts';
import { RESULT_STATUSES } from '../runs/index.ts';

// SQL of the retention sweep (service.ts). Each batch deletes rows in one transaction with its audit row; the
// candidates are locked FOR UPDATE SKIP LOCKED and deleted with RETURNING, so two sweeps at once never delete
// (or count, or audit) one row twice.

export interface RetentionClient {
  id: string;
  retentionDays: number | null;
  androidAppPath: string | null;
  iosAppPath: string | null;
}

/** One page of clients after `afterId` (keyset paging: the sweep never holds every client). */
export async function clientPage(db: Db, afterId: string, limit: number): Promise<RetentionClient[]> {
  return db
    .select({ id: clients.id, retentionDays: clients.retentionDays, androidAppPath: clients.androidAppPath, iosAppPath: clients.iosAppPath })
    .from(clients)
    .where(gt(clients.id, afterId))
    .orderBy(asc(clients.id))
    .limit(limit);
}

export async function getRetentionDays(db: Db, clientId: string): Promise<number | null> {
  const [row] = await db.select({ days: clients.retentionDays }).from(clients).where(eq(clients.id, clientId));
  return row?.days ?? null;
}

export async function setRetentionDays(db: Db, clientId: string, days: number | null): Promise<void> {
  await db.update(clients).set({ retentionDays: days }).where(eq(clients.id, clientId));
}

const resultStatuses = sql.join(
  RESULT_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);

/**
 * Deletes up to `limit` of the client's runs that finished before `cutoff`, except the runs holding a test's
 * latest finished result or its latest report (what GET /test/latest and /report/fetch serve). Their tests and
 * attempts go with them (cascade); the audit row is written in the same transaction. Answers the ids deleted.
 */
export async function deleteOldRuns(db: Db, clientId: string, cutoff: Date, limit: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    const result = (await tx.execute(sql`
      DELETE FROM engine_runs WHERE id IN (
        SELECT r.id FROM engine_runs r
        WHERE r.client_id = ${clientId} AND r.finished_at IS NOT NULL AND r.finished_at < ${cutoff.toISOString()}
          AND r.id NOT IN (
            SELECT DISTINCT ON (t.test_name) t.run_id FROM engine_run_tests t
            WHERE t.client_id = ${clientId} AND t.status IN (${resultStatuses}) AND t.finished_at IS NOT NULL
            ORDER BY t.test_name, t.finished_at DESC
          )
          AND r.id NOT IN (
            SELECT DISTINCT ON (t.test_name) t.run_id FROM engine_run_tests t
            WHERE t.client_id = ${clientId} AND t.report_formats IS NOT NULL
            ORDER BY t.test_name, t.finished_at DESC NULLS LAST
          )
        ORDER BY r.finished_at
        LIMIT ${limit}
        FOR UPDATE OF r SKIP LOCKED
      )
      RETURNING id`)) as unknown as { rows: { id: string }[] };
    const ids = result.rows.map((r) => r.id);
    if (ids.length > 0) {
      await tx.insert(auditEvents).values({
        type: 'retention.deleted',
        clientId,
        details: { what: 'runs', count: ids.length, before: cutoff.toISOString(), runIds: ids.slice(0, 20), more: Math.max(0, ids.length - 20) },
      });
    }
    return ids;
  });
}

/**
 * Deletes up to `limit` of the client's upload records older than `cutoff` except the current build of each
 * platform (the newest record, while the client has a build for that platform). Only the current build has a
 * file (each upload replaces it), so these are records only. Audited in the same transaction.
 */
export async function deleteOldUploads(db: Db, client: RetentionClient, cutoff: Date, limit: number): Promise<number> {
  const current = (platform: UploadPlatform, path: string | null) =>
    path === null
      ? sql`NULL`
      : sql`(SELECT c.id FROM uploads c WHERE c.client_id = ${client.id} AND c.platform = ${platform} ORDER BY c.created_at DESC, c.id DESC LIMIT 1)`;
  return db.transaction(async (tx) => {
    const result = (await tx.execute(sql`
      DELETE FROM uploads WHERE id IN (
        SELECT u.id FROM uploads u
        WHERE u.client_id = ${client.id} AND u.created_at < ${cutoff.toISOString()}
          AND u.id IS DISTINCT FROM ${current('android', client.androidAppPath)}
          AND u.id IS DISTINCT FROM ${current('ios', client.iosAppPath)}
        ORDER BY u.created_at
        LIMIT ${limit}
        FOR UPDATE OF u SKIP LOCKED
      )
      RETURNING id, platform`)) as unknown as { rows: { id: string; platform: UploadPlatform }[] };
    const rows = result.rows;
    if (rows.length > 0) {
      await tx.insert(auditEvents).values({
        type: 'retention.deleted',
        clientId: client.id,
        details: {
          what: 'uploads',
          count: rows.length,
          before: cutoff.toISOString(),
          android: rows.filter((r) => r.platform === 'android').length,
          ios: rows.filter((r) => r.platform === 'ios').length,
        },
      });
    }
    return rows.length;
  });
}

/** Which of these run ids still have a row (the orphan-folder check). */
export async function existingRunIds(db: Db, clientId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const result = (await db.execute(
    sql`SELECT id FROM engine_runs WHERE client_id = ${clientId} AND id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  )) as unknown as { rows: { id: string }[] };
  return new Set(result.rows.map((r) => r.id));
}


/** True when the client (still) has no build of this platform: read again just before removing its file. */
export async function hasNoBuild(db: Db, clientId: string, platform: UploadPlatform): Promise<boolean> {
  const [row] = await db.select({ android: clients.androidAppPath, ios: clients.iosAppPath }).from(clients).where(eq(clients.id, clientId));
  return row !== undefined && row[platform] === null;
}
