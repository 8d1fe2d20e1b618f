// After a deploy (issue 42, decision 0103): a run started with afterDeploy=true is followed, once it ends, by a re-crawl
// of the client's site (a patch of the suite for an operator to review); the client reads what healed, what needs a
// person and what the re-crawl proposes.
import { type AfterDeployReport, type AfterDeployState, afterDeployState, afterDeployWords, patchSummary, type SuiteProposal } from '@fullstop/contracts';
import { AppError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import type { EngineDeps } from '../engine/index.ts';
import { runHealsOf } from '../healing/index.ts';
import { findClientRun, isTerminal, type RunRow, runTestsOf } from '../runs/index.ts';
import { proposalOf, proposeUpdate, runningProposalFor } from './proposal-service.ts';
import { claimAfterDeploy, setAfterDeploy } from './deploy-follow-up-repository.ts';

/** What importedBy says of the version a deploy's re-crawl proposes: "crawl proposal (deploy, run 3f2a9c1b)". */
export const deployProposer = (runId: string) => `deploy, run ${runId.slice(0, 8)}`;

/** A re-crawl taken on this long ago that never got a proposal: the process that took it on stopped. */
const CLAIM_LOST_MS = 10 * 60_000;

/**
 * Once a deploy's run has ended: the site is crawled again and the patch of the suite it proposes is remembered on
 * the run. Called by the process that ends the run (a runFinished listener) and, for a run a worker process ended,
 * by the first report read after it; one of them takes it on. Its healed locators were proposed already, as every
 * run's are (finish.ts). A cancelled run starts nothing; a crawl already running is the one reported; nothing here
 * fails the run.
 */
export async function followDeploy(deps: EngineDeps, run: RunRow): Promise<AfterDeployState | null> {
  if (!run.afterDeploy || !isTerminal(run.status)) return null;
  const startedAt = new Date();
  if (!(await claimAfterDeploy(deps.db, run.id, startedAt))) return null;
  const base = { startedAt: startedAt.toISOString() };
  let state: AfterDeployState;
  if (run.status === 'cancelled') {
    state = { ...base, proposalId: null, note: 'The run was cancelled, so the site was not crawled again.' };
  } else {
    try {
      const proposal = await proposeUpdate(deps, run.clientId, { by: deployProposer(run.id) });
      state = { ...base, proposalId: proposal.id, note: null };
    } catch (err) {
      const busy = err instanceof ConflictError ? runningProposalFor(run.clientId) : null;
      if (busy) state = { ...base, proposalId: busy.id, note: 'A crawl of the site was already running when the run ended: its proposal is the one reported.' };
      else if (err instanceof AppError) state = { ...base, proposalId: null, note: `The site could not be crawled again: ${err.message}` };
      else {
        deps.log.error({ err, runId: run.id }, 'the re-crawl after a deploy could not start');
        state = { ...base, proposalId: null, note: 'The site could not be crawled again: an unexpected error, logged for our team.' };
      }
    }
  }
  await setAfterDeploy(deps.db, run.id, state);
  return state;
}

const notStarted = (message: string): AfterDeployReport['recrawl'] => ({ status: 'not started', message, version: null, added: [], removed: [], kept: null });
const waiting = (message: string): AfterDeployReport['recrawl'] => ({ status: 'waiting', message, version: null, added: [], removed: [], kept: null });

function recrawlOf(proposal: SuiteProposal): AfterDeployReport['recrawl'] {
  const base = { version: proposal.version, added: [], removed: [], kept: null };
  if (proposal.status === 'crawling' || proposal.status === 'writing') {
    const progress = proposal.progress && proposal.progress.total > 0 ? ` (${proposal.progress.done} of at most ${proposal.progress.total} pages)` : '';
    return { ...base, status: proposal.status, message: `The site is being crawled again${progress}: what it adds and removes is known when it ends.` };
  }
  // Its first line: what follows is the browser's own log (its command line, the engine's paths), not for a client.
  if (proposal.status === 'failed') return { ...base, status: 'failed', message: `The site could not be crawled again: ${(proposal.error ?? proposal.message).split('\n')[0]!.trim()}` };
  const patch = proposal.patch;
  if (patch && proposal.version === null) return { ...base, status: 'done', kept: patch.kept, message: `The re-crawl found nothing to add or remove: the suite keeps its ${patch.kept} tests as they are.` };
  if (!patch) return { ...base, status: 'done', message: `The re-crawl proposes suite version ${proposal.version}, ${proposal.tests.length} tests, for our QA team to review.` };
  return {
    status: 'done',
    version: proposal.version,
    added: patch.added.map((t) => ({ name: t.name, page: t.page })),
    removed: patch.removed.map((t) => ({ name: t.name, page: t.page, evidence: t.evidence })),
    kept: patch.kept,
    message: `The re-crawl proposes suite version ${proposal.version} for our QA team to review. ${patchSummary(patch)}`,
  };
}

/**
 * GET /test/runs/{runId}/after-deploy: which failures of a deploy's run were healed, which need a person, and what
 * the re-crawl that followed proposes. 404 for another client's run, or a run not started after a deploy.
 */
export async function afterDeployReportOf(deps: EngineDeps, clientId: string, runId: string): Promise<AfterDeployReport> {
  const run = await findClientRun(deps.db, clientId, runId);
  if (!run) throw new NotFoundError('Run not found');
  let followed = afterDeployState.nullable().parse(run.afterDeploy);
  if (!followed) throw new NotFoundError('This run was not started after a deploy: start one with afterDeploy=true');
  // A run a worker process ended: nobody has taken its re-crawl on yet.
  if (isTerminal(run.status) && followed.startedAt === null) followed = (await followDeploy(deps, run)) ?? followed;
  const [tests, heals] = await Promise.all([runTestsOf(deps.db, runId), runHealsOf(deps.db, clientId, runId)]);
  const healedCases = new Map(heals.tests.map((t) => [t.runTestId, t.cases.length]));
  // A test needs a person when it could not run, or when more of its cases failed than heals explain.
  const needPerson = tests
    .filter((t) => t.status === 'error' || (t.status === 'failed' && (t.totals?.failedTests ?? 1) > (healedCases.get(t.id) ?? 0)))
    .map((t) => ({ testName: t.testName, status: t.status, error: t.error }));
  const report = {
    runId,
    runStatus: run.status,
    healed: heals.tests.map((t) => ({ testName: t.testName, cases: t.cases.length })),
    needPerson,
    recrawl: await recrawlNow(deps, clientId, run.status, followed),
  };
  return { ...report, words: afterDeployWords(report) };
}

async function recrawlNow(deps: EngineDeps, clientId: string, runStatus: RunRow['status'], followed: AfterDeployState): Promise<AfterDeployReport['recrawl']> {
  if (!isTerminal(runStatus)) return waiting('The site is crawled again once the run has ended.');
  if (followed.proposalId) {
    const proposal = await proposalOf(deps, clientId, followed.proposalId);
    if (!proposal) return notStarted('The re-crawl’s record is no longer kept.');
    const recrawl = recrawlOf(proposal);
    return followed.note ? { ...recrawl, message: `${followed.note} ${recrawl.message}` } : recrawl;
  }
  if (followed.note) return notStarted(followed.note);
  if (followed.startedAt && Date.parse(followed.startedAt) + CLAIM_LOST_MS < Date.now()) return notStarted('The site could not be crawled again: the server process starting it stopped.');
  return waiting('The re-crawl is starting.');
}
