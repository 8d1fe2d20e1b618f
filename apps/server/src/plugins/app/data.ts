import fp from 'fastify-plugin';
import { type Database, type Db, migrateDatabase, openPglite, openPostgres, type RawDatabase } from '../../db/database.ts';
import { type ArtifactStore, createArtifactStore } from '../../lib/artifact-store/index.ts';
import { dataPaths, ensureDataDirs, lockDataDir, type Paths } from '../../lib/data-dir.ts';

export interface DataOptions {
  /** An already open database (tests hand in a restored snapshot); otherwise DATABASE_URL or PGlite in DATA_DIR. */
  database?: Database;
}

/**
 * The data layer: the data directory (locked against a second server), the database (migrated before any
 * route runs), and their decorators. Closed last, when the app closes.
 */
export const data = fp<DataOptions>(async (app, opts) => {
  const paths = dataPaths(app.env.DATA_DIR);
  ensureDataDirs(paths);
  const unlock = await lockDataDir(paths.dataDir);
  let database: Database;
  let artifacts: ArtifactStore;
  try {
    artifacts = await createArtifactStore(app.env, paths);
    // A store that cannot be reached (no bucket, refused credentials) stops the start with what to fix.
    await artifacts.check();
    database = opts.database ?? (app.env.DATABASE_URL ? openPostgres(app.env.DATABASE_URL) : await openPglite(paths.pglite, app.env.PGLITE_SHARED_BUFFERS_MB));
    await migrateDatabase(database);
  } catch (err) {
    await unlock().catch(() => {});
    throw err;
  }
  app.decorate('paths', paths);
  app.decorate('artifacts', artifacts);
  app.decorate('db', database.db);
  // A getter: fastify's decorate() typing cannot take a union value directly.
  app.decorate('database', { getter: () => database.raw });
  app.addHook('onClose', async () => {
    await database.close().catch((err: unknown) => app.log.error({ err }, 'closing the database'));
    await unlock().catch(() => {});
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Drizzle over the one schema (src/db/schema). */
    db: Db;
    /** The driver under Drizzle: PGlite or a pg Pool (pg-boss needs it). */
    database: RawDatabase;
    paths: Paths;
    /** Where reports, traces, uploads and attachments are kept (lib/artifact-store). */
    artifacts: ArtifactStore;
  }
}
