import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createPglite, type Database, fromPglite, MIGRATIONS_DIR, migrateDatabase, openPostgres } from '../../src/db/database.ts';
import { scratchDatabase } from './scratch-database.ts';

/** Set to a PostgreSQL URL (a superuser's) to run the API suite on PostgreSQL instead of PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (name.endsWith('.sql') || name.endsWith('.json')) hash.update(name).update(readFileSync(full));
      else if (!name.includes('.')) walk(full);
    }
  };
  walk(MIGRATIONS_DIR);
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
    const file = path.join(dir, `pglite-${migrationsFingerprint()}.tar`);
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

/** A fresh, migrated database: in-memory PGlite restored from the snapshot, or a new PostgreSQL database. */
export async function freshDatabase(): Promise<Database> {
  if (!TEST_DATABASE_URL) {
    const pglite = await createPglite({ loadDataDir: await migratedSnapshot() });
    return fromPglite(pglite);
  }
  const scratch = scratchDatabase(TEST_DATABASE_URL, 'fullstop_test');
  await scratch.create();
  const database = openPostgres(scratch.url, 5);
  await migrateDatabase(database);
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop().catch(() => {});
    },
  };
}
