/**
 * What a runner of another user (runner-user.ts) reads besides its own folder: the suite's files, the client's
 * uploaded builds for the mobile checks, a visual test's baselines and a browser test's locator fingerprints. They live in the server's DATA_DIR, shared by every client's attempts and
 * closed to the runner user, so each attempt gets copies of its own inputs in a folder of its own, given to the
 * runner user and removed when the attempt ends. The runner sees nothing else of DATA_DIR.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunTarget, TestDefinition } from '../types.ts';
import { giveRunFolder, giveTree, type RunnerUser, searchableAbove } from './runner-user.ts';

/**
 * The kinds that read the suite's files (`test.suiteDir`: Playwright's spec files) and the uploaded builds (the
 * target's androidApp / iosApp files). Only theirs are copied; a new kind that reads either must be added here.
 */
const READS_SUITE = new Set<TestDefinition['kind']>(['browser', 'mobile-ui']);
const READS_BUILDS = new Set<TestDefinition['kind']>(['mobile-static', 'mobile-ui']);

export interface StagedInputs {
  test: TestDefinition;
  target: RunTarget;
  /** The copy of the visual test's baselines (RunContext.baselineDir), when it has some. */
  baselineDir?: string;
  /** The copy of the browser test's fingerprints to heal with (RunContext.healingFingerprints), when it has some. */
  healingFingerprints?: string;
  /** Removes the copies (after the attempt, its processes killed). */
  remove(): Promise<void>;
}

/**
 * Gives the attempt's folder to `user` and copies the test's inputs where that user may read them; answers the
 * test and target with the copies' paths.
 */
export async function stageInputs(
  test: TestDefinition,
  target: RunTarget,
  runDir: string,
  user: RunnerUser,
  baselineDir?: string,
  healingFingerprints?: string,
): Promise<StagedInputs> {
  giveRunFolder(runDir, user);
  const wantsBuilds = READS_BUILDS.has(test.kind) && Boolean(target.androidApp || target.iosApp);
  const wantsSuite = READS_SUITE.has(test.kind) && Boolean(test.suiteDir);
  const wantsBaselines = test.kind === 'visual' && Boolean(baselineDir);
  const wantsFingerprints = test.kind === 'browser' && Boolean(healingFingerprints);
  if (!wantsSuite && !wantsBuilds && !wantsBaselines && !wantsFingerprints) return { test, target, remove: async () => {} };
  const dir = await mkdtemp(path.join(tmpdir(), 'fullstop-inputs-'));
  try {
    const staged: Omit<StagedInputs, 'remove'> = { test: { ...test }, target: { ...target } };
    if (wantsBaselines && baselineDir) {
      staged.baselineDir = path.join(dir, 'baselines');
      // None yet (a first run): every shot is new.
      await cp(baselineDir, staged.baselineDir, { recursive: true, verbatimSymlinks: true }).catch((error: unknown) => {
        if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
      });
    }
    if (wantsFingerprints && healingFingerprints) {
      // One file, copied as a file (a link is not followed); none (nothing stored yet): nothing heals, as unset.
      const copy = path.join(dir, 'fingerprints.json');
      const copied = await cp(healingFingerprints, copy, { verbatimSymlinks: true }).then(
        () => true,
        (error: unknown) => {
          if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
          return false;
        },
      );
      if (copied) staged.healingFingerprints = copy;
    }
    if (wantsSuite && test.suiteDir) {
      staged.test.suiteDir = path.join(dir, 'suite');
      // Links are copied as links (never followed as root): one pointing outside reads nothing as the runner user.
      await cp(test.suiteDir, staged.test.suiteDir, { recursive: true, verbatimSymlinks: true });
    }
    if (wantsBuilds) {
      for (const key of ['androidApp', 'iosApp'] as const) {
        const file = target[key];
        if (!file) continue;
        staged.target[key] = path.join(dir, `${key}${path.extname(file)}`);
        await cp(file, staged.target[key]!);
      }
    }
    giveTree(dir, user);
    searchableAbove(dir);
    return { ...staged, remove: () => rm(dir, { recursive: true, force: true }) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
