import { z } from 'zod';
import { idString } from './common.ts';
import { suiteIssue, testGroups } from './tests.ts';

/**
 * The console's Suites page (operators only): a client's imported versions, their files, a diff between two, an
 * import from the browser (a folder or a zip), a trial run of a version and the switch of the current one.
 */

/** `/operator/clients/:id/suites/:version/...` */
export const suiteVersionParams = z.object({
  id: idString,
  version: z.coerce.number({ error: 'version must be a number' }).int().min(1, { error: 'version must be at least 1' }),
});

export const suiteVersionSummary = z.object({
  version: z.number().int(),
  fileCount: z.number().int(),
  tests: z.number().int(),
  importedBy: z.string().nullable(),
  createdAt: z.string(),
  /** The version that runs and lists tests; at most one per client. */
  current: z.boolean(),
});
export type SuiteVersionSummary = z.infer<typeof suiteVersionSummary>;
export const suiteVersionsResponse = z.object({ versions: z.array(suiteVersionSummary) });
export type SuiteVersionsResponse = z.infer<typeof suiteVersionsResponse>;

export const suiteFileEntry = z.object({ path: z.string(), size: z.number().int() });
export type SuiteFileEntry = z.infer<typeof suiteFileEntry>;
export const suiteFilesResponse = z.object({ version: z.number().int(), files: z.array(suiteFileEntry) });
export type SuiteFilesResponse = z.infer<typeof suiteFilesResponse>;

export const suiteFileQuery = z.object({
  path: z.string({ error: 'path is required' }).min(1, { error: 'path is required' }).max(300, { error: 'path must be at most 300 characters' }),
});

/** One file's text. A binary file has no content, only a note; a long one is cut at SUITE_FILE_VIEW_MAX_BYTES. */
export const suiteFileResponse = z.object({
  path: z.string(),
  size: z.number().int(),
  binary: z.boolean(),
  truncated: z.boolean(),
  content: z.string().nullable(),
  note: z.string().optional(),
});
export type SuiteFileResponse = z.infer<typeof suiteFileResponse>;
export const SUITE_FILE_VIEW_MAX_BYTES = 1024 * 1024;

export const suiteDiffQuery = z.object({
  from: z.coerce.number({ error: 'from must be a version number' }).int().min(1, { error: 'from must be a version number' }),
  to: z.coerce.number({ error: 'to must be a version number' }).int().min(1, { error: 'to must be a version number' }),
});

export const suiteFileChange = z.object({
  path: z.string(),
  status: z.enum(['added', 'removed', 'changed']),
  binary: z.boolean(),
  /** A unified diff (---/+++ headers, @@ hunks, lines starting with space, + or -); null for binary or cut files. */
  patch: z.string().nullable(),
  /** The patch was left out or cut: too long to show. */
  truncated: z.boolean(),
});
export type SuiteFileChange = z.infer<typeof suiteFileChange>;
export const suiteDiffResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  files: z.array(suiteFileChange),
  unchanged: z.number().int(),
});
export type SuiteDiffResponse = z.infer<typeof suiteDiffResponse>;

/** The import form's choice (multipart field `makeCurrent`): make the new version current, or keep it for trial. */
export const suiteMakeCurrentField = z.enum(['true', 'false']);

export const consoleSuiteImportResponse = z.object({
  message: z.string(),
  version: z.number().int(),
  tests: z.number().int(),
  groups: testGroups,
  current: z.boolean(),
});
export type ConsoleSuiteImportResponse = z.infer<typeof consoleSuiteImportResponse>;

/** A refused import (400): every problem naming its file, field and reason. */
export const suiteImportRefused = z.object({ message: z.string(), code: z.string(), issues: z.array(suiteIssue) });
export type SuiteImportRefused = z.infer<typeof suiteImportRefused>;

export const suiteTryResponse = z.object({ message: z.string(), runId: z.string(), version: z.number().int() });
export type SuiteTryResponse = z.infer<typeof suiteTryResponse>;

export const suiteCurrentResponse = z.object({ message: z.string(), version: z.number().int(), previous: z.number().int().nullable() });
export type SuiteCurrentResponse = z.infer<typeof suiteCurrentResponse>;

/**
 * A starter suite from a crawl (docs/starter-suite.md): `POST /operator/clients/:id/suites/propose` starts one,
 * `GET /operator/clients/:id/suites/proposals/:proposalId` answers how it goes and, once done, the version written.
 */
export const SUITE_PROPOSAL_DEFAULT_PAGES = 25;
export const SUITE_PROPOSAL_MAX_PAGES = 100;
export const suiteProposeBody = z
  .object({
    maxPages: z
      .number({ error: `maxPages must be a number from 1 to ${SUITE_PROPOSAL_MAX_PAGES}` })
      .int({ error: 'maxPages must be a whole number' })
      .min(1, { error: 'maxPages must be at least 1' })
      .max(SUITE_PROPOSAL_MAX_PAGES, { error: `maxPages must be at most ${SUITE_PROPOSAL_MAX_PAGES}` })
      .default(SUITE_PROPOSAL_DEFAULT_PAGES),
    /** Make the proposed version current at once (scripts); otherwise it waits for review. */
    makeCurrent: z.boolean({ error: 'makeCurrent must be true or false' }).default(false),
  })
  .strict();
export type SuiteProposeBody = z.input<typeof suiteProposeBody>;

export const suiteProposalParams = z.object({ id: idString, proposalId: z.string().min(1).max(64) });

/**
 * What a proposal for a client with a current suite changes in it (a re-crawl, decision 0102): the new version is the
 * current one plus tests for pages it does not test yet, minus the proposed tests of pages that are gone (404 or 410
 * twice). Hand-written tests, and proposed ones edited since, are kept as they are.
 */
export const suiteProposalPatch = z.object({
  /** The current version the patch was written on. */
  base: z.number().int(),
  added: z.array(z.object({ name: z.string(), kind: z.string(), page: z.string() })),
  /** Each with what showed the page is gone: "/old-pricing answered 404 twice, at 12:01:03 and 12:01:08". */
  removed: z.array(z.object({ name: z.string(), kind: z.string(), page: z.string(), evidence: z.string() })),
  /** Tests of the current version kept as they are. */
  kept: z.number().int(),
});
export type SuiteProposalPatch = z.infer<typeof suiteProposalPatch>;

/**
 * A patch in one sentence, as the console and the CLI say it: "Adds 2 tests for /careers, removes 'Page Old pricing
 * (old-pricing) loads cleanly' (/old-pricing answered 404 twice, at 12:01:03 and 12:01:08 UTC); keeps 14 tests as they are."
 */
export function patchSummary(patch: Pick<SuiteProposalPatch, 'added' | 'removed' | 'kept'>): string {
  const tests = (n: number) => `${n} ${n === 1 ? 'test' : 'tests'}`;
  const pagesOf = <T extends { page: string }>(list: T[]) => [...new Set(list.map((t) => t.page))];
  const parts: string[] = [];
  const addedPages = pagesOf(patch.added);
  if (addedPages.length === 1) parts.push(`adds ${tests(patch.added.length)} for ${addedPages[0]}`);
  else if (addedPages.length > 1) parts.push(`adds ${tests(patch.added.length)} for ${addedPages.length} pages (${addedPages.join(', ')})`);
  for (const page of pagesOf(patch.removed)) {
    const ofPage = patch.removed.filter((r) => r.page === page);
    parts.push(`removes ${ofPage.length === 1 ? `'${ofPage[0]!.name}'` : `${tests(ofPage.length)} of ${page}`} (${ofPage[0]!.evidence})`);
  }
  const kept = `keeps ${tests(patch.kept)} as ${patch.kept === 1 ? 'it is' : 'they are'}`;
  if (parts.length === 0) return `Nothing to add or remove: ${kept}.`;
  const text = `${parts.join(', ')}; ${kept}.`;
  return `${text[0]!.toUpperCase()}${text.slice(1)}`;
}

export const suiteProposal = z.object({
  id: z.string(),
  clientId: z.string(),
  status: z.enum(['crawling', 'writing', 'done', 'failed']),
  maxPages: z.number().int(),
  makeCurrent: z.boolean(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  progress: z.object({ done: z.number(), total: z.number(), message: z.string().optional() }).nullable(),
  /** What it is doing, or how it ended, in words. */
  message: z.string(),
  /** The version written (once done). */
  version: z.number().int().nullable(),
  current: z.boolean(),
  tests: z.array(z.object({ name: z.string(), kind: z.string(), group: z.string() })),
  /** Pages the crawl found and the suite leaves out, with why. */
  leftOut: z.array(z.object({ path: z.string(), reason: z.string() })),
  /** The crawl ran with the suite's login. */
  loggedIn: z.boolean(),
  notes: z.array(z.string()),
  error: z.string().nullable(),
  /** Set once done when the client had a current suite: what the new version adds to it and removes; null: a whole new suite. */
  patch: suiteProposalPatch.nullable().default(null),
});
export type SuiteProposal = z.infer<typeof suiteProposal>;
