import { createHash } from 'node:crypto';
import type { SuiteFiles } from '@fullstop/engine';

/**
 * How a later proposal knows which tests a proposal wrote (decision 0102). Each test it writes carries a marker in
 * suite.json, `"proposed": { "page": "/pricing", "on": "2026-11-29", "sha256": "…" }`: the page it tests (none for
 * the suite-wide tests), the day, and a fingerprint of the test as written and of the files it names (its spec). A
 * test is the proposal's own while its fingerprint still matches; one an operator edited (its options, its name, its
 * spec) is hand-written from then on, and so is one without a marker. Only the proposal's own are ever removed.
 */

/** What the marker reads of a test: a test as the proposal writes it, or as suite.json holds it. */
export interface TestJson {
  name: string;
  kind: string;
  options?: Record<string, unknown>;
  proposed?: ProposedMarker;
}

export interface ProposedMarker {
  page?: string;
  on?: string;
  sha256?: string;
}

/** Option keys through which a test names files of its suite (as the engine's validation reads them). */
const FILE_OPTION_KEYS = ['spec', 'specs', 'file', 'files', 'testFiles', 'references'];

/** The suite's files a test names, as paths in the suite. */
export function filesOf(test: Pick<TestJson, 'options'>): string[] {
  const options = test.options ?? {};
  return FILE_OPTION_KEYS.flatMap((key) => {
    const v = options[key];
    const list: unknown[] = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
    return list.filter((item): item is string => typeof item === 'string').map((item) => item.replace(/^\.\//, ''));
  });
}

/** JSON with every object's keys sorted: the same test reads the same however suite.json was laid out. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** The fingerprint of a test (its marker left out) and of the files it names, as they are in `files`. */
export function fingerprintOf(test: TestJson, files: SuiteFiles): string {
  const { proposed: _marker, ...rest } = test;
  const hash = createHash('sha256').update(canonical(rest));
  for (const file of filesOf(test).sort()) {
    hash.update(`\0${file}\0`);
    hash.update(files.get(file) ?? Buffer.from('(missing)'));
  }
  return hash.digest('hex');
}

/** The test with its marker: the page it was proposed for (none: a suite-wide test), the day, its fingerprint. */
export function markProposed<T extends TestJson>(test: T, files: SuiteFiles, page: string | null, on: string): T {
  return { ...test, proposed: { ...(page !== null ? { page } : {}), on, sha256: fingerprintOf(test, files) } };
}

/** The test is as a proposal wrote it: marked, and neither it nor a file it names changed since. */
export function isProposalsOwn(test: TestJson, files: SuiteFiles): boolean {
  const marker = test.proposed;
  return typeof marker?.sha256 === 'string' && marker.sha256 === fingerprintOf(test, files);
}

/** The page a marked test was proposed for, or null (not marked, or a suite-wide test). */
export function proposedPage(test: TestJson): string | null {
  const page = test.proposed?.page;
  return typeof page === 'string' && page.startsWith('/') ? page : null;
}
