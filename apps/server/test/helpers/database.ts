import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createPglite, type Database, fromPglite, MIGRATIONS_DIR, migrateDatabase, openPostgres } from '../../src/db/database.ts';
import { scratchDatabase } from './scratch-database.ts';

/** Set to a PostgreSQL URL (a superuser's) to run the API suite on PostgreSQL instead of PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/** A hash of the migrations folder, and of PGlite's version where its snapshot is the thing kept. */
function migrationsFingerprint(kind: 'pglite' | 'postgres'): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (name.endsWith('.sql') || name.endsWith('.json')) hash.update(name).update(readFileSync(full));
      else if (!name.includes('.')) walk(full);
    }
  };
  walk(MIGRATIONS_DIR);
  if (kind === 'postgres') return hash.digest('hex').slice(0, 16);
  // A snapshot is PGlite's own data folder: another PGlite version makes a new one.
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(readFileSync(path.join(path.dirname(pgliteEntry), '..', 'package.json')));
  return hash.digest('hex').slice(0, 16);
}

let snapshot: Promise<Blob> | undefined;

/**
 * A migrated PGlite data directory as a tarball, made once per migrations version and kept in the OS temp
 * folder: restoring it (~0.5 s) is much faster than migrating a new database in every test file.
 */
function migratedSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const dir = path.join(os.tmpdir(), 'fullstop-test-snapshots');
    const file = path.join(dir, `pglite-${migrationsFingerprint('pglite')}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const pglite = await createPglite();
    await migrateDatabase(fromPglite(pglite));
    const blob = await pglite.dumpDataDir('none');
    await pglite.close();
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
    renameSync(tmp, file);
    return blob;
  })();
  return snapshot;
}

let template: Promise<string> | undefined;

/**
 * PostgreSQL's counterpart of the snapshot: a database migrated once per migrations version, that every test's database
 * is a copy of (`CREATE DATABASE … TEMPLATE`: one file copy, against a database made and 31 migrations applied each
 * time, 1.3-2.5 s). Test processes start at once: the first to take the advisory lock builds it under another name and
 * renames it when done, so no copy is ever made of a half-migrated one, nor of one a connection is still open to.
 */
function migratedTemplate(adminUrl: string): Promise<string> {
  template ??= (async () => {
    const name = `fullstop_template_${migrationsFingerprint('postgres')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = scratchDatabase(adminUrl, `${name}_building`);
        await building.create();
        const database = openPostgres(building.url, 1);
        try {
          await migrateDatabase(database);
        } finally {
          await database.close();
        }
        await admin.query(`ALTER DATABASE ${building.name} RENAME TO ${name}`);
      }
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    } finally {
      await admin.end();
    }
    return name;
  })();
  return template;
}

/** A fresh, migrated database: in-memory PGlite restored from the snapshot, or a copy of PostgreSQL's migrated template. */
export async function freshDatabase(): Promise<Database> {
  if (!TEST_DATABASE_URL) {
    const pglite = await createPglite({ loadDataDir: await migratedSnapshot() });
    return fromPglite(pglite);
  }
  const scratch = scratchDatabase(TEST_DATABASE_URL, 'fullstop_test');
  await scratch.create({ template: await migratedTemplate(TEST_DATABASE_URL) });
  const database = openPostgres(scratch.url, 5);
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop().catch(() => {});
    },
  };
}
