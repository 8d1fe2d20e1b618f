import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestGroups } from '@fullstop/contracts';
import { type Runner, type SuiteFiles, type SuiteManifest, type TestKind, validateSuite, writeSuiteFolder } from '@fullstop/engine';
import { desc, eq, max } from 'drizzle-orm';
import type { Db } from '../../../db/database.ts';
import { clients, engineSuites } from '../../../db/schema/index.ts';
import type { Paths } from '../../../lib/data-dir.ts';
import { NotFoundError } from '../../../lib/errors.ts';

export type SuiteRow = typeof engineSuites.$inferSelect;

export async function currentSuite(db: Db, clientId: string): Promise<SuiteRow | null> {
  const [row] = await db.select().from(engineSuites).where(eq(engineSuites.clientId, clientId)).orderBy(desc(engineSuites.version)).limit(1);
  return row ?? null;
}

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
 * Validates a suite and stores it as the client's next version: the files are copied under
 * storage/suites/<client>/ (older versions stay, past runs point at them) and the manifest goes in the database.
 */
export async function importSuite(
  deps: { db: Db; paths: Paths; runners: Partial<Record<TestKind, Runner>> },
  clientId: string,
  files: SuiteFiles,
  importedBy: string | null,
): Promise<ImportedSuite> {
  const [client] = await deps.db.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!client) throw new NotFoundError('Client not found');
  const { manifest, tests } = validateSuite(files, deps.runners);
  const dir = path.join(deps.paths.storage, 'suites', clientId, randomUUID());
  await writeSuiteFolder(dir, files);
  try {
    const row = await deps.db.transaction(async (tx) => {
      const [last] = await tx.select({ v: max(engineSuites.version) }).from(engineSuites).where(eq(engineSuites.clientId, clientId));
      const version = (last?.v ?? 0) + 1;
      const [inserted] = await tx
        .insert(engineSuites)
        .values({ clientId, version, dir, manifest, fileCount: files.size, importedBy })
        .returning();
      return inserted!;
    });
    return { version: row.version, suiteId: row.id, tests: tests.length, groups: testGroupsOf(manifest) };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

export async function suiteHistory(db: Db, clientId: string) {
  return db
    .select({ version: engineSuites.version, fileCount: engineSuites.fileCount, importedBy: engineSuites.importedBy, createdAt: engineSuites.createdAt })
    .from(engineSuites)
    .where(eq(engineSuites.clientId, clientId))
    .orderBy(desc(engineSuites.version));
}
