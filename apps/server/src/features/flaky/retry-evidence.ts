import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Artifact } from '@fullstop/engine';
import type { ArtifactStore } from '../../lib/artifact-store/index.ts';

/**
 * A retry keeps the earlier attempts' evidence (issue 10): an attempt that errored and is retried records the
 * artifacts its runner returned beside its log (`attempt-N.artifacts.json`, outside the runner's own folder), and
 * the test's final report lists them with the last attempt's, each path under its `attempt-N/` folder.
 */
const recordOf = (attempt: number) => `attempt-${attempt}.artifacts.json`;

export async function keepAttemptArtifacts(runTestDir: string, attempt: number, artifacts: Artifact[] | undefined): Promise<void> {
  if (!artifacts?.length) return;
  const kept = artifacts.map((a) => ({ ...a, path: `attempt-${attempt}/${a.path}` }));
  await writeFile(path.join(runTestDir, recordOf(attempt)), JSON.stringify(kept));
}

/** The artifacts kept of attempts 1 … before-1, oldest first. */
export async function earlierAttemptArtifacts(runTestDir: string, before: number): Promise<Artifact[]> {
  const out: Artifact[] = [];
  for (let n = 1; n < before; n++) {
    try {
      const parsed: unknown = JSON.parse(await readFile(path.join(runTestDir, recordOf(n)), 'utf8'));
      if (Array.isArray(parsed)) out.push(...(parsed as Artifact[]).filter((a) => typeof a?.path === 'string' && a.path.startsWith(`attempt-${n}/`)));
    } catch {
      // No record: that attempt left nothing.
    }
  }
  return out;
}

/**
 * With a remote store the earlier attempts may have run on other machines: their records and logs (small files)
 * are copied back into this run test's local folder before its report is written. Their evidence files stay in
 * the store, where the report's links read them.
 */
export async function fetchEarlierAttempts(store: ArtifactStore, key: string, runTestDir: string, before: number): Promise<void> {
  if (store.localPath(key) !== null) return;
  for (let n = 1; n < before; n++) {
    for (const name of [recordOf(n), `attempt-${n}.log`]) {
      const file = path.join(runTestDir, name);
      if (!existsSync(file)) await store.download(`${key}/${name}`, file).catch(() => false);
    }
  }
}
