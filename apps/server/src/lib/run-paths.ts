import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type ArtifactStore, artifactKey } from './artifact-store/index.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Paths } from './data-dir.ts';

/** storage/runs/<client>/<run>/: a folder per run test, and reports/ with the run report of a "Run all". */
export function runDir(paths: Paths, clientId: string, runId: string): string {
  return path.join(paths.runs, clientId, runId);
}

/** storage/runs/<client>/<run>/<runTest>/: attempt-N/ (the runner's folder), attempt-N.log, reports/. */
export function runTestDir(paths: Paths, clientId: string, runId: string, runTestId: string): string {
  return path.join(runDir(paths, clientId, runId), runTestId);
}

export const attemptFolder = (attempt: number) => `attempt-${attempt}`;
export const attemptLog = (attempt: number) => `attempt-${attempt}.log`;
export const REPORTS_FOLDER = 'reports';

/** The same places as artifact keys: `runs/<client>/<run>` and `runs/<client>/<run>/<runTest>`. */
export const runKey = (clientId: string, runId: string) => artifactKey('runs', clientId, runId);
export const runTestKey = (clientId: string, runId: string, runTestId: string) => artifactKey('runs', clientId, runId, runTestId);

/**
 * Hands a finished folder to the artifact store, so every API process can serve it. With the data directory
 * the folder is already the store's own and nothing moves; with a remote store its files are uploaded and the
 * local copy removed. A failed upload is logged and the local copy kept: the result in the database stands.
 */
export async function publishFolder(deps: { artifacts: ArtifactStore; log: FastifyBaseLogger }, key: string, dir: string): Promise<void> {
  if (deps.artifacts.localPath(key) !== null) return;
  try {
    const files = await deps.artifacts.putDir(key, dir);
    await rm(dir, { recursive: true, force: true });
    deps.log.debug({ key, files }, 'published a run folder');
  } catch (err) {
    deps.log.error({ err, key, dir }, "publishing a run folder to the artifact store failed; its files stay in this process's data directory");
  }
}
