import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { EngineDeps } from '../engine/index.ts';

type SuiteDeps = Pick<EngineDeps, 'artifacts' | 'paths'>;

/**
 * A suite version's key in the artifact store, `suites/<client>/<version folder>`, from the folder its import
 * wrote (`<DATA_DIR>/storage/suites/<client>/<uuid>` on the importing machine); null for any other layout.
 */
export function suiteKeyOf(dir: string): string | null {
  const parts = path.resolve(dir).split(path.sep);
  const [suites, client, version] = parts.slice(-3);
  return suites === 'suites' && client && version ? `suites/${client}/${version}` : null;
}

/** After an import: a remote store gets the version's files, so a worker on any machine can run them. */
export async function publishSuite(deps: SuiteDeps, dir: string): Promise<void> {
  const key = suiteKeyOf(dir);
  if (!key || deps.artifacts.localPath(key) !== null) return;
  await deps.artifacts.putDir(key, dir);
}

/**
 * The suite row with `dir` a folder on this machine: the folder itself where it exists (the importing process,
 * or the data directory's store), else the version copied once from the store into DATA_DIR/work (a version
 * never changes, so the copy serves every later run).
 */
export async function localSuite<T extends { dir: string }>(deps: SuiteDeps, suite: T): Promise<T> {
  if (existsSync(suite.dir)) return suite;
  const key = suiteKeyOf(suite.dir);
  if (!key) return suite;
  const local = deps.artifacts.localPath(key);
  if (local !== null) return { ...suite, dir: local };
  const cached = path.join(deps.paths.dataDir, 'work', ...key.split('/'));
  if (!existsSync(cached)) {
    const part = `${cached}.part-${randomUUID()}`;
    try {
      for await (const o of deps.artifacts.list(`${key}/`)) await deps.artifacts.download(o.key, path.join(part, ...o.key.slice(key.length + 1).split('/')));
      await mkdir(part, { recursive: true });
      await mkdir(path.dirname(cached), { recursive: true });
      // Another run may have copied it meanwhile: its copy is as good as this one.
      await rename(part, cached).catch((err: unknown) => {
        if (!existsSync(cached)) throw err;
      });
    } finally {
      await rm(part, { recursive: true, force: true });
    }
  }
  return { ...suite, dir: cached };
}
