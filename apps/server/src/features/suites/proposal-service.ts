import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { patchSummary, SUITE_PROPOSAL_DEFAULT_PAGES, type SuiteProposal } from '@fullstop/contracts';
import { readSuiteFolder, secretNamesOf, SuiteValidationError, type SuiteFiles, type TestDefinition } from '@fullstop/engine';
import { runInSandbox } from '@fullstop/engine/sandbox';
import { LOOK_BUDGET_MS, SITE_SURVEY_MODULE, SiteSurvey, SURVEY_FILE, SURVEY_KIND, SURVEY_MAX_BYTES } from '@fullstop/engine/survey';
import { AttemptFileError, readAttemptJson } from '@fullstop/engine/attempt-file';
import { ConflictError } from '../../lib/errors.ts';
import { getClient } from '../accounts/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { sandboxRun } from '../runs/index.ts';
import { listSecrets } from '../secrets/index.ts';
import { runTargetFor } from '../targets/index.ts';
import { askWhetherGone, GONE_PAUSE_MS } from './page-gone.ts';
import { currentSuite } from './suite-repository.ts';
import { importSuite } from './suite-service.ts';
import { localSuite } from './suite-store.ts';
import { writeStarterSuite } from './suite-proposal.ts';
import { pagesToAskAbout, updateSuite } from './suite-update.ts';

/**
 * Proposing a starter suite (docs/starter-suite.md): the site survey crawls the client's website in a runner
 * process (the sandbox, as any attempt: time and memory limits, the target policy, the suite's login), then the
 * suite written from it is imported as a new version, proposed (not current) unless asked otherwise.
 *
 * A client with a current suite gets a patch of it instead (suite-update.ts, decision 0102): its files and tests, plus
 * tests for the pages it does not test yet, minus the proposal's own tests of pages that answer 404 or 410 twice.
 *
 * A proposal is started and then polled: its state is kept in this process and in the artifact store
 * (`proposals/<client>/<id>.json`), so any API process answers the poll.
 */

/** Paths never loaded while crawling: a logout link would end the crawl's login. */
export const CRAWL_EXCLUDE = ['/logout', '/log-out', '/signout', '/sign-out'];
/** What importedBy says of a proposed version (the list shows it; no column of its own). */
export const PROPOSED_BY = (who: string | null) => `crawl proposal${who ? ` (${who})` : ''}`;

const running = new Map<string, SuiteProposal>();
const keyOf = (clientId: string, id: string) => `proposals/${clientId}/${id}.json`;

async function save(deps: Pick<EngineDeps, 'artifacts'>, state: SuiteProposal): Promise<void> {
  const body = Buffer.from(JSON.stringify(state));
  await deps.artifacts.put(keyOf(state.clientId, state.id), Readable.from([body]), { contentType: 'application/json', size: body.length });
}

/** A proposal's state: this process's own while it runs, else the stored one; null when there is none. */
export async function proposalOf(deps: Pick<EngineDeps, 'artifacts'>, clientId: string, id: string): Promise<SuiteProposal | null> {
  const own = running.get(id);
  if (own) return own.clientId === clientId ? own : null;
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  const stored = await deps.artifacts.get(keyOf(clientId, id)).catch(() => null);
  if (!stored) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stored.body) chunks.push(chunk as Buffer);
  // A state stored before proposals could be patches has no `patch`: a whole new suite.
  const saved = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<SuiteProposal, 'patch'> & Partial<Pick<SuiteProposal, 'patch'>>;
  const state: SuiteProposal = { ...saved, patch: saved.patch ?? null };
  // Still "running" in the store long past its time limit: the API process running it stopped, and its runner with it.
  const overdue = Date.parse(state.startedAt) + (surveySecondsFor(state.maxPages) + STALE_MARGIN_SECONDS) * 1000 < Date.now();
  if ((state.status === 'crawling' || state.status === 'writing') && overdue) {
    return { ...state, status: 'failed', progress: null, error: 'the server process running it stopped', message: 'The starter suite could not be proposed: the server process running it stopped. Start it again.' };
  }
  return state;
}

/** Past its time limit by this much, a proposal no process runs any more is reported as failed. */
const STALE_MARGIN_SECONDS = 120;

/**
 * The crawl's time: a safety net, not what ends it (every page found loaded, or maxPages). Ten seconds a page, as a
 * page waits up to 10 s to be ready: a busy machine finds the pages an idle one does (issue 38; at 30 + 3 s a page,
 * a crawl of 15 pages under a load average of 25 ran out and proposed a page fewer). The whole attempt: that, a few
 * seconds more per page measured, the time the visual tests' pages are looked at twice (LOOK_BUDGET_MS, the
 * survey's own bound), and a margin.
 */
export const crawlSecondsFor = (pages: number) => Math.min(60 + 10 * pages, 600);
export const surveySecondsFor = (pages: number) => crawlSecondsFor(pages) + 10 * pages + LOOK_BUDGET_MS / 1000 + 60;

export interface ProposeOptions {
  maxPages: number;
  makeCurrent: boolean;
  /** Who asked: an operator's e-mail, or how the call was made. */
  by: string | null;
  /** Called once the proposal has ended (the route audits it). */
  onEnd?: (state: SuiteProposal) => void;
}

/**
 * A re-crawl's proposal, for a caller that is not an operator's request (a deploy's trigger): a patch of the current
 * suite as a new version, never made current; a whole suite when the client has none yet. 409 while one runs.
 */
export function proposeUpdate(deps: EngineDeps, clientId: string, options: { by: string | null; maxPages?: number; onEnd?: (state: SuiteProposal) => void }): Promise<SuiteProposal> {
  return startProposal(deps, clientId, { maxPages: options.maxPages ?? SUITE_PROPOSAL_DEFAULT_PAGES, makeCurrent: false, by: options.by, ...(options.onEnd ? { onEnd: options.onEnd } : {}) });
}

/** The proposal this process is running for the client, if any (the one a 409 of startProposal speaks of). */
export function runningProposalFor(clientId: string): SuiteProposal | null {
  for (const p of running.values()) if (p.clientId === clientId && (p.status === 'crawling' || p.status === 'writing')) return p;
  return null;
}

/** Starts a proposal and answers its first state; one at a time per client (409 while one runs). */
export async function startProposal(deps: EngineDeps, clientId: string, options: ProposeOptions): Promise<SuiteProposal> {
  await getClient(deps.db, clientId);
  // One that says it ended (its last writes may still be going) holds nothing: a caller that saw "done" may start the next.
  const busy = runningProposalFor(clientId);
  if (busy) throw new ConflictError(`A starter suite is already being proposed for this client (started ${busy.startedAt}): wait for it to end`);
  const state: SuiteProposal = {
    id: randomUUID(),
    clientId,
    status: 'crawling',
    maxPages: options.maxPages,
    makeCurrent: options.makeCurrent,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    progress: { done: 0, total: options.maxPages, message: 'starting the crawl' },
    message: 'Crawling the website',
    version: null,
    current: false,
    tests: [],
    leftOut: [],
    loggedIn: false,
    notes: [],
    error: null,
    patch: null,
  };
  running.set(state.id, state);
  await save(deps, state);
  void propose(deps, state, options).finally(() => {
    running.delete(state.id);
    options.onEnd?.(state);
  });
  return state;
}

async function propose(deps: EngineDeps, state: SuiteProposal, options: ProposeOptions): Promise<void> {
  const clientId = state.clientId;
  const runDir = path.join(deps.paths.runs, clientId, 'proposals', state.id);
  try {
    const client = await getClient(deps.db, clientId);
    const current = await currentSuite(deps.db, clientId);
    // The current suite's login is followed when every secret it names is set (docs/suite-login.md).
    const login = current?.manifest.login;
    const set = new Set((await listSecrets(deps.db, clientId)).map((s) => s.name));
    const useLogin = login && secretNamesOf(login).every((n) => set.has(n)) ? login : undefined;
    if (login && !useLogin) state.notes.push(`The suite's login was not followed: its secrets are not all set (${secretNamesOf(login).filter((n) => !set.has(n)).join(', ')}).`);

    const survey = await runSurvey(deps, state, runDir, useLogin);
    state.status = 'writing';
    state.message = `Writing the suite from ${survey.pages.length} page(s)`;
    state.loggedIn = survey.loggedIn;
    await save(deps, state);

    const date = new Date().toISOString().slice(0, 10);
    const base = current ? { version: current.version, files: await readSuiteFolder((await localSuite(deps, current)).dir) } : null;
    const gone = base ? await goneOf(deps, state, base.files, survey) : new Map<string, string>();
    const write = (visual: boolean) =>
      base
        ? updateSuite(base.files, survey, { visual, date, gone })
        : { ...writeStarterSuite(survey, { ...(useLogin ? { login: useLogin } : {}), visual, clientName: client.name, date }), patch: null };
    const importAs = (files: SuiteFiles) => importSuite(deps, clientId, files, PROPOSED_BY(options.by), { makeCurrent: options.makeCurrent });
    let suite = write(true);
    // A re-crawl that finds nothing to add or remove writes no version: a deploy a day would otherwise pile up copies.
    const unchanged = base !== null && suite.patch !== null && suite.patch.added.length === 0 && suite.patch.removed.length === 0;
    let imported = null;
    if (!unchanged) {
      try {
        imported = await importAs(suite.files);
      } catch (err) {
        // A server that does not serve visual tests yet refuses them: the rest of the suite is proposed without them.
        const visualRefused = err instanceof SuiteValidationError && err.issues.every((i) => i.field?.endsWith('.kind') && /visual/i.test(i.reason));
        if (!visualRefused) throw err;
        state.notes.push(`No visual tests: ${(err as SuiteValidationError).issues[0]?.reason ?? 'this server does not serve them'}.`);
        suite = write(false);
        imported = await importAs(suite.files);
      }
    }
    state.notes.push(...suite.notes);
    const patch = base && suite.patch ? { base: base.version, ...suite.patch } : null;
    const proposed = patch ? `as a patch of version ${patch.base} from a crawl of ${survey.pages.length} page(s)` : `from ${survey.pages.length} page(s)`;
    const made = options.makeCurrent ? ' and made current' : '';
    Object.assign(state, {
      status: 'done',
      version: imported?.version ?? null,
      current: imported !== null && options.makeCurrent,
      tests: suite.tests,
      leftOut: suite.leftOut,
      patch,
      progress: null,
      message: imported
        ? `Suite version ${imported.version} proposed ${proposed}${made}: ${imported.tests} tests${options.makeCurrent ? '' : ' (the current version still runs)'}${patch ? `. ${patchSummary(patch)}` : ''}`
        : `${patchSummary(patch!)} No version was written: version ${patch!.base} stays as it is (a crawl of ${survey.pages.length} page(s)).`,
    });
  } catch (err) {
    state.status = 'failed';
    state.progress = null;
    state.error = err instanceof SuiteValidationError ? `the proposed suite is not valid: ${err.message}` : (err as Error).message;
    state.message = `The starter suite could not be proposed: ${state.error}`;
    deps.log.warn({ err, clientId }, 'suite proposal failed');
  } finally {
    state.finishedAt = new Date().toISOString();
    await save(deps, state).catch((err: unknown) => deps.log.warn({ err }, 'saving the suite proposal failed'));
    await rm(runDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * The pages of the current suite's proposed tests that are gone, each with what showed it: asked twice through the
 * target policy (page-gone.ts) when the survey did not find them loading. What the others answered goes to the notes.
 */
async function goneOf(deps: EngineDeps, state: SuiteProposal, files: SuiteFiles, survey: SiteSurvey): Promise<Map<string, string>> {
  const { ask: paths, notAsked } = pagesToAskAbout(files, survey);
  if (notAsked.length) state.notes.push(`Not found by the crawl, and kept: the suite logs in, and a page behind a login answers a visitor logged out as it likes, so only a page the crawl saw answer 404 or 410 is asked about: ${notAsked.slice(0, 5).join(', ')}${notAsked.length > 5 ? ` and ${notAsked.length - 5} more` : ''}.`);
  if (paths.length === 0) return new Map();
  state.message = `Asking whether ${paths.length} page(s) the suite tests and the crawl did not find are gone`;
  await save(deps, state);
  const verdicts = await askWhetherGone(await runTargetFor(deps, state.clientId), paths, { pauseMs: GONE_PAUSE_MS });
  const kept = [...verdicts.values()].filter((v) => !v.gone).map((v) => v.says);
  if (kept.length) state.notes.push(`Not found by the crawl, and kept (only a page that answers 404 or 410 twice is gone): ${kept.slice(0, 5).join('; ')}${kept.length > 5 ? `; and ${kept.length - 5} more` : ''}.`);
  return new Map([...verdicts].filter(([, v]) => v.gone).map(([path, v]) => [path, v.says]));
}

/** The survey's attempt, in the sandbox with the client's target and (when followed) the login and its secrets. */
async function runSurvey(deps: EngineDeps, state: SuiteProposal, runDir: string, login: TestDefinition['login']): Promise<SiteSurvey> {
  await mkdir(runDir, { recursive: true });
  const test: TestDefinition = {
    name: 'Site survey',
    group: 'Proposal',
    kind: SURVEY_KIND,
    options: { maxPages: state.maxPages, crawlSeconds: crawlSecondsFor(state.maxPages), exclude: CRAWL_EXCLUDE },
    ...(login ? { login } : {}),
  };
  const controller = new AbortController();
  const run = await sandboxRun(deps, state.clientId, test, {
    attemptKey: `proposal-${state.id}`,
    timeSeconds: surveySecondsFor(state.maxPages),
    ctx: {
      runDir,
      signal: controller.signal,
      log: (message, data) => deps.log.debug({ proposal: state.id, ...data }, message),
      progress: (p) => {
        state.progress = p;
        if (p.message) state.message = `${p.message[0]!.toUpperCase()}${p.message.slice(1)}`;
      },
    },
  });
  // Always the survey's own runners module (a test's fake runners module is for its runs, not this); never from
  // or into the warm pool, which holds the runs' runner processes.
  const result = await runInSandbox({ ...run, runnersModule: SITE_SURVEY_MODULE, ctx: { ...run.ctx, warmRunners: 0 } });
  if (result.status === 'error') throw new Error(result.error ?? 'the crawl could not run');
  return readSurvey(deps, state, runDir);
}

/**
 * The survey the runner wrote (another OS user's file, from a client's pages): read without following a link, at
 * most SURVEY_MAX_BYTES, and parsed with the survey's schema. What went wrong is said in fixed words, quoting nothing
 * of the file; the detail goes to the log.
 */
async function readSurvey(deps: Pick<EngineDeps, 'log'>, state: SuiteProposal, runDir: string): Promise<SiteSurvey> {
  try {
    return await readAttemptJson(path.join(runDir, SURVEY_FILE), SiteSurvey, { maxBytes: SURVEY_MAX_BYTES });
  } catch (err) {
    if (!(err instanceof AttemptFileError)) throw err;
    deps.log.warn({ proposal: state.id, clientId: state.clientId, problem: err.problem, detail: err.detail }, 'the survey file of a proposal could not be read');
    const why = err.problem === 'not-json' || err.problem === 'not-valid' ? 'is not a valid survey' : err.says;
    throw new Error(`the crawl's results could not be read (${SURVEY_FILE} ${why})`);
  }
}
