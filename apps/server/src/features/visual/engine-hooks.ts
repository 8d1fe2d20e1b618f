import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { type VisualSummary, visualBaselineFile, visualCandidates, visualSummary } from '@fullstop/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { type ArtifactStore, artifactKey } from '../../lib/artifact-store/index.ts';
import type { Paths } from '../../lib/data-dir.ts';
import { attemptFolder, runTestKey } from '../../lib/run-paths.ts';
import { currentBaselinesOfTest, insertCandidates } from './repository.ts';

// What a run of a `visual` test needs of this feature (decision 0080, "For the server slice"): its baselines in a
// folder before the attempt, and its candidates recorded after. The runs feature calls these two and nothing else.

interface HookDeps {
  db: Db;
  artifacts: ArtifactStore;
  paths: Paths;
  log: FastifyBaseLogger;
}

/** The artifact-store key of a baseline image: `visual/<client>/<key>/<sha256>.png` (a version never changes its bytes). */
export function baselineArtifactKey(clientId: string, key: string, sha256: string): string {
  return artifactKey('visual', clientId, key, `${sha256}.png`);
}

/**
 * A fresh folder holding the current baseline of each of the test's keys as `visualBaselineFile(key)`, for
 * `ctx.baselineDir`; the caller removes it after the attempt. A baseline whose image cannot be read is left out
 * (its shot is then new, and says so) and logged.
 */
export async function prepareBaselineDir(deps: HookDeps, clientId: string, testName: string, attemptId: string): Promise<string> {
  const dir = path.join(deps.paths.incoming, `visual-baselines-${attemptId}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const row of await currentBaselinesOfTest(deps.db, clientId, testName)) {
    const copied = await deps.artifacts.download(row.artifactKey, path.join(dir, visualBaselineFile(row.key))).catch((err: unknown) => {
      deps.log.warn({ err, key: row.key }, 'a visual baseline could not be read');
      return false;
    });
    if (!copied) deps.log.warn({ clientId, key: row.key, artifactKey: row.artifactKey }, 'a visual baseline is missing from the artifact store');
  }
  return dir;
}

export async function removeBaselineDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** The test's summary as a visual one, or null (a crash left none, or another kind's). */
export function visualSummaryOf(summary: unknown): VisualSummary | null {
  const parsed = visualSummary.safeParse(summary);
  return parsed.success ? parsed.data : null;
}

/**
 * Records the shots the attempt that ended the test offers as baselines (`visualCandidates`): each key's first new
 * or changed shot, its image left where the run wrote it (it goes with its run).
 */
export async function recordVisualCandidates(
  deps: HookDeps,
  rt: { id: string; runId: string; clientId: string; testName: string },
  attempt: number,
  summary: unknown,
): Promise<number> {
  const visual = visualSummaryOf(summary);
  if (!visual) return 0;
  const root = runTestKey(rt.clientId, rt.runId, rt.id);
  const rows = visualCandidates(visual).map((shot) => ({
    clientId: rt.clientId,
    runId: rt.runId,
    runTestId: rt.id,
    attempt,
    key: shot.key,
    testName: rt.testName,
    page: shot.page,
    engine: shot.engine,
    device: shot.device,
    shotStatus: shot.status,
    sha256: shot.current.sha256,
    width: shot.current.width,
    height: shot.current.height,
    artifactKey: artifactKey(root, attemptFolder(attempt), shot.current.path),
    comparedWith: shot.baselineSha256 ?? null,
  }));
  await insertCandidates(deps.db, rows);
  return rows.length;
}
