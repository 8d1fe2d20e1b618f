import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { SERVER_DIR } from '../lib/server-dir.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/**
 * The one Drizzle type every feature uses; the same queries run on PGlite and on PostgreSQL. Both drivers'
 * databases and a transaction's handle are one of these, so a repository function takes either.
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/** The raw connection under Drizzle, for pg-boss and the few places that need the driver itself. */
export type RawDatabase =
  | { kind: 'pglite'; pglite: PGlite }
  | { kind: 'postgres'; pool: pg.Pool; url: string };

export interface Database {
  db: Db;
  raw: RawDatabase;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(SERVER_DIR, 'drizzle');
/** Any constant will do: it only has to be the same in every process migrating one database. */
const MIGRATION_LOCK_ID = 724_911_003;

/** Wraps an open PGlite (a folder, memory, or a restored snapshot). Closing the Database closes it. */
export function fromPglite(pglite: PGlite): Database {
  const db = drizzlePglite({ client: pglite, schema });
  return { db, raw: { kind: 'pglite', pglite }, close: () => pglite.close() };
}

/** PostgreSQL's own default, which PGlite before 0.4 could not change: 128 MB zeroed, so resident, at start. */
export const PGLITE_DEFAULT_SHARED_BUFFERS_MB = 16;

/**
 * Opens the embedded database: a folder, memory (no `dataDir`), or a snapshot (`loadDataDir`). Always the
 * `template1` database, where PGlite 0.3 (which named no other) kept every table: PGlite 0.4 connects to
 * `postgres` by default, and a folder made before would look empty. `shared_buffers` is PostgreSQL's buffer pool,
 * allocated and zeroed at start in PGlite's WebAssembly memory, so all of it is resident however small the data:
 * 128 MB by default; 16 MB holds the working set of a client's history here (decision 0081).
 */
export function createPglite(
  options: { dataDir?: string; loadDataDir?: Blob; sharedBuffersMb?: number } = {},
): Promise<PGlite> {
  const { sharedBuffersMb = PGLITE_DEFAULT_SHARED_BUFFERS_MB, ...rest } = options;
  return PGlite.create({
    ...rest,
    database: 'template1',
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`],
  });
}

export async function openPglite(dir: string, sharedBuffersMb?: number): Promise<Database> {
  return fromPglite(await createPglite({ dataDir: dir, ...(sharedBuffersMb ? { sharedBuffersMb } : {}) }));
}

export function openPostgres(url: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client's error (e.g. the server restarting) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzleNodePg({ client: pool, schema });
  return { db, raw: { kind: 'postgres', pool, url }, close: () => pool.end() };
}

/** Applies the migrations folder. On PostgreSQL an advisory lock lets several processes start at once. */
export async function migrateDatabase(database: Database): Promise<void> {
  const { raw } = database;
  if (raw.kind === 'pglite') {
    await migratePglite(drizzlePglite({ client: raw.pglite }), { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  const client = await raw.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migrateNodePg(drizzleNodePg({ client }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
}
