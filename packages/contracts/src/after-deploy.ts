// After a deploy (issue 42, decision 0103): a run started with `afterDeploy=true` is followed, once it ends, by a
// re-crawl of the client's site whose patch of the suite an operator reviews; its healed locators are proposed as
// every run's are. The client reads in one place which failures were healed, which need a person, and what the
// re-crawl proposes to add and remove.
import { z } from 'zod';
import { idString } from './common.ts';

/** What a run remembers of its deploy follow-up (engine_runs.after_deploy): the re-crawl it started, or why none. */
export const afterDeployState = z.object({
  /** When a process took on the re-crawl (once the run ended); null before. */
  startedAt: z.string().max(40).nullable(),
  /** The re-crawl's proposal; null until it has started (or when none could start: `note` says why). */
  proposalId: z.string().max(64).nullable(),
  note: z.string().max(500).nullable(),
});
export type AfterDeployState = z.infer<typeof afterDeployState>;

export const AFTER_DEPLOY_RECRAWL_STATUSES = ['waiting', 'crawling', 'writing', 'done', 'failed', 'not started'] as const;

export const afterDeployReport = z.object({
  runId: z.string(),
  /** The run's own status: the rest is complete once it has ended. */
  runStatus: z.string(),
  /** Tests with cases whose locators were healed: each heal is proposed as a change to the test, for our QA team. */
  healed: z.array(z.object({ testName: z.string(), cases: z.number().int() })),
  /** Tests that failed, or could not run, for a reason no heal explains: a person looks at them. */
  needPerson: z.array(z.object({ testName: z.string(), status: z.string(), error: z.string().nullable() })),
  recrawl: z.object({
    status: z.enum(AFTER_DEPLOY_RECRAWL_STATUSES),
    /** Where the re-crawl stands or how it ended, in words. */
    message: z.string(),
    /** The proposed suite version, once written (not current: our QA team reviews it first). */
    version: z.number().int().nullable(),
    added: z.array(z.object({ name: z.string(), page: z.string() })),
    removed: z.array(z.object({ name: z.string(), page: z.string(), evidence: z.string() })),
    /** Tests of the current suite kept as they are, hand-written ones included. */
    kept: z.number().int().nullable(),
  }),
  /** All of it in sentences (afterDeployWords), as the portal, the CLI and the CI runner say it. */
  words: z.array(z.string()),
});
export type AfterDeployReport = z.infer<typeof afterDeployReport>;

export const afterDeployParams = z.object({ runId: idString });

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The report in sentences (the report's `words`), as the portal, `fullstop run --after-deploy` and the CI runner say it: "2 tests failed because the site
 * changed an element they look for; each was found again, and the change to the test is proposed to our QA team.
 * 1 test needs a person: Checkout. The re-crawl proposes version 5: adds 2 tests for /careers; keeps 14 tests."
 */
export function afterDeployWords(report: Omit<AfterDeployReport, 'words'>): string[] {
  const lines: string[] = [];
  const running = report.runStatus === 'queued' || report.runStatus === 'running';
  if (running) lines.push('The run is not over yet: what healed and what needs a person is known when it ends.');
  if (report.healed.length > 0) {
    lines.push(
      `${plural(report.healed.length, 'test')} (${report.healed.map((t) => t.testName).join(', ')}) found an element the site changed: it was found again, and the change to the test is proposed to our QA team.`,
    );
  }
  if (report.needPerson.length > 0) lines.push(`${plural(report.needPerson.length, 'test needs', 'tests need')} a person: ${report.needPerson.map((t) => t.testName).join(', ')}.`);
  else if (!running) lines.push('No failure needs a person.');
  lines.push(report.recrawl.message);
  return lines;
}
