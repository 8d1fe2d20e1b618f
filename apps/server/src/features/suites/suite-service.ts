import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestGroups } from '@fullstop/contracts';
import { type KindValidator, MANIFEST_FILE, type SuiteFiles, type SuiteManifest, SuiteValidationError, type TestDefinition, type TestKind, validateSuite, writeSuiteFolder } from '@fullstop/engine';
import type { Db } from '../../db/database.ts';
import type { ArtifactStore } from '../../lib/artifact-store/index.ts';
import type { Paths } from '../../lib/data-dir.ts';
import { publishSuite } from './suite-store.ts';
import { getClient } from '../accounts/index.ts';
import { insertNextSuiteVersion } from './suite-repository.ts';

/** The spec's shape of GET /test/fetch/all: group name to its test names, in manifest order. */
export function testGroupsOf(manifest: SuiteManifest | null): TestGroups {
  const groups: TestGroups = {};
  for (const g of manifest?.groups ?? []) groups[g.name] = g.tests.map((t) => t.name);
  return groups;
}

export interface ImportedSuite {
  version: number;
  suiteId: string;
  tests: number;
  groups: TestGroups;
}

/**
 * What an operator's import checks beyond the suite's own files: the cloud devices its browser tests name against what
 * the client's device cloud offers (issue 44). Each finding names the test, the device's place in its `devices`, why.
 */
export type ImportCheck = (tests: readonly TestDefinition[]) => Promise<{ testName: string; index: number; reason: string }[]>;

/** `groups.1.tests.0`: where a test is in the manifest, for an issue's field. */
function placeOf(manifest: SuiteManifest, testName: string): string {
  for (const [gi, g] of manifest.groups.entries()) {
    const ti = g.tests.findIndex((t) => t.name === testName);
    if (ti >= 0) return `groups.${gi}.tests.${ti}`;
  }
  return 'groups';
}

/**
 * Validates a suite and stores it as the client's next version: the files are copied under
 * storage/suites/<client>/ (older versions stay, past runs point at them) and the manifest goes in the database.
 * It becomes the current version unless `makeCurrent` is false (kept for trial runs). `check` adds what an
 * operator's import refuses beyond the files (ImportCheck); a proposal made from a current suite passes none.
 */
export async function importSuite(
  deps: { db: Db; paths: Paths; artifacts: ArtifactStore; runners: Partial<Record<TestKind, KindValidator>> },
  clientId: string,
  files: SuiteFiles,
  importedBy: string | null,
  options: { makeCurrent?: boolean; check?: ImportCheck } = {},
): Promise<ImportedSuite> {
  await getClient(deps.db, clientId);
  const { manifest, tests } = validateSuite(files, deps.runners);
  const found = options.check ? await options.check(tests) : [];
  if (found.length > 0) {
    throw new SuiteValidationError(found.map((f) => ({ file: MANIFEST_FILE, field: `${placeOf(manifest, f.testName)}.options.devices.${f.index}`, reason: f.reason })));
  }
  const dir = path.join(deps.paths.storage, 'suites', clientId, randomUUID());
  await writeSuiteFolder(dir, files);
  try {
    await publishSuite(deps, dir);
    const row = await insertNextSuiteVersion(deps.db, { clientId, dir, manifest, fileCount: files.size, importedBy }, options.makeCurrent ?? true);
    return { version: row.version, suiteId: row.id, tests: tests.length, groups: testGroupsOf(manifest) };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
