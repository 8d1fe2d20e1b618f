import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** Where the server keeps its files, all under DATA_DIR. */
export interface Paths {
  dataDir: string;
  /** The embedded database's folder (unused with DATABASE_URL). */
  pglite: string;
  storage: string;
  uploads: string;
  runs: string;
  outbox: string;
  /** Uploads being checked before they are handed to the artifact store. */
  incoming: string;
}

export function dataPaths(dataDir: string): Paths {
  const root = path.resolve(dataDir);
  const storage = path.join(root, 'storage');
  return {
    dataDir: root,
    pglite: path.join(root, 'pglite'),
    storage,
    uploads: path.join(storage, 'uploads'),
    runs: path.join(storage, 'runs'),
    outbox: path.join(root, 'outbox'),
    incoming: path.join(root, 'incoming'),
  };
}

export function ensureDataDirs(paths: Paths): void {
  for (const dir of [paths.dataDir, paths.storage, paths.uploads, paths.runs, paths.outbox, paths.incoming]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  // Bug and request attachments were kept beside storage/ before the artifact store: they move in once.
  for (const legacy of ['bugs', 'requests']) {
    const from = path.join(paths.dataDir, legacy);
    const to = path.join(paths.storage, legacy);
    if (existsSync(from) && !existsSync(to)) renameSync(from, to);
  }
}

export class DataDirLockedError extends Error {
  constructor(dataDir: string) {
    super(
      `Another Fullstop server is already running on the data directory ${dataDir}. ` +
        'Stop it first, or start this one with a different DATA_DIR. ' +
        '(Two servers on one embedded database would silently lose writes.)',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * Takes an exclusive lock on the data directory. proper-lockfile keeps the lock fresh while the process lives
 * and treats it as stale once it stops being refreshed, so a killed server does not block the next start.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: path.join(dataDir, 'server.lock'),
      stale: 15_000,
      update: 5_000,
      retries: 0,
      realpath: false,
      // A missed refresh (a long pause of the event loop) must not crash a running server.
      onCompromised: (err) => process.emitWarning(`data directory lock: ${err.message}`),
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dataDir);
    throw err;
  }
}
