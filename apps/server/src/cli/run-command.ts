import { writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import {
  type AfterDeployReport,
  CI_EXIT_CODES,
  formatUtc,
  ordinal,
  RUN_TRIGGER_HEADER,
  roundedWaitSeconds,
  type RunDetailResponse,
  type RunQueuedResponse,
  type RunResultResponse,
  type RunManualWaiting,
  type RunStatus,
} from '@fullstop/contracts';
import { type CiRun, type CiTestResult, runToJunit, verdictOf } from './junit.ts';
import { clientFor, defaultServer, OperatorApiError } from './operator-client.ts';

const TERMINAL: ReadonlySet<RunStatus> = new Set(['passed', 'failed', 'error', 'cancelled']);
/** How often the CLI asks how the run stands; a long-held request would die at a proxy or a client timeout. */
const POLL_MS = Number(process.env.FULLSTOP_POLL_MS) > 0 ? Number(process.env.FULLSTOP_POLL_MS) : 2000;
/** The group of a test when only the operator's answer (without groups) is at hand. */
const NO_GROUP = 'Fullstop QA';

interface RunOptions {
  client?: string;
  apiKey?: string;
  test?: string;
  wait: boolean;
  junit?: string;
  timeout: string;
  ci?: boolean;
  automatedOnly?: boolean;
  afterDeploy?: boolean;
}

/** No verdict: the run, or the CLI's talk with the server, went wrong. Exit code 2. */
class CouldNotRun extends Error {}

/** A client's API: queue with the key, then follow the run until it ends or the time is up. */
async function runWithKey(
  server: string,
  apiKey: string,
  opts: RunOptions,
  timeout: number,
): Promise<{ queued: RunQueuedResponse; detail: RunDetailResponse | null; afterDeploy: AfterDeployReport | null }> {
  const headers: Record<string, string> = { 'x-api-key': apiKey };
  if (opts.ci) headers[RUN_TRIGGER_HEADER] = 'ci';
  const call = async <T>(urlPath: string): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(new URL(urlPath, server), { headers });
    } catch (err) {
      throw new CouldNotRun(`Cannot reach the Fullstop server at ${server} (${String((err as Error).cause ?? (err as Error).message)}).`);
    }
    const body = (await res.json().catch(() => ({}))) as T & { message?: string };
    if (res.status === 401 || res.status === 403) {
      throw new CouldNotRun(`The server refused the API key (${res.status}): ${body.message ?? res.statusText}. Check FULLSTOP_API_KEY: the portal's Setup page shows the current key.`);
    }
    if (!res.ok) throw new CouldNotRun(`${urlPath.split('?')[0]} failed (${res.status}): ${body.message ?? res.statusText}`);
    return body;
  };
  const query = new URLSearchParams({ ...(opts.automatedOnly ? { automatedOnly: 'true' } : {}), ...(opts.afterDeploy ? { afterDeploy: 'true' } : {}) }).toString();
  const queued = await call<RunQueuedResponse>(`/test/run/${opts.test ? encodeURIComponent(opts.test) : 'all'}${query ? `?${query}` : ''}`);
  if (!opts.wait) return { queued, detail: null, afterDeploy: null };
  const deadline = Date.now() + timeout * 1000;
  let said = '';
  for (;;) {
    const detail = await call<RunDetailResponse>(`/test/runs/${encodeURIComponent(queued.runId)}`);
    if (TERMINAL.has(detail.status) || Date.now() >= deadline) {
      // A deploy's run: what healed, what needs a person, and the re-crawl that has just started.
      const afterDeploy = opts.afterDeploy ? await call<AfterDeployReport>(`/test/runs/${encodeURIComponent(queued.runId)}/after-deploy`) : null;
      return { queued, detail, afterDeploy };
    }
    // While nothing of it runs yet: where it stands in the queue, said again when that changes.
    const waiting = detail.status === 'queued' ? queueLine(detail) : detail.manual ? manualLine(detail.manual) : '';
    if (waiting && waiting !== said) console.log(waiting);
    said = waiting;
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
  }
}

/** "queued: 3rd in line, about 40 s", from the run's first waiting test; empty when none says where it stands. */
export function queueLine(detail: Pick<RunDetailResponse, 'tests'>): string {
  const first = detail.tests.flatMap((t) => (t.queue ? [t.queue] : [])).sort((a, b) => a.position - b.position)[0];
  if (!first) return '';
  const wait = roundedWaitSeconds(first.startsInSeconds);
  const when = wait === 0 ? 'starting any moment' : `about ${wait < 60 ? `${wait} s` : wait < 3600 ? `${wait / 60} min` : `${Math.floor(wait / 3600)} h ${(wait % 3600) / 60} min`.replace(/ 0 min$/, '')}`;
  return `queued: ${ordinal(first.position)} in line, ${when}`;
}

/** "2 manual cases waiting for a tester, due by 30 Nov 2026, 14:00 UTC": what a run with manual cases waits for. */
export function manualLine(waiting: RunManualWaiting): string {
  return `${waiting.count} manual case${waiting.count === 1 ? '' : 's'} waiting for a tester, due by ${formatUtc(waiting.dueAt)} (leave them out with --automated-only)`;
}

function fromDetail(d: RunDetailResponse): CiRun {
  return {
    runId: d.runId,
    startedAt: d.createdAt,
    tests: d.tests.map((t) => ({ group: t.group, testName: t.testName, status: t.status, durationMs: t.durationMs, error: t.error, totals: t.totals })),
  };
}

function fromResult(r: RunResultResponse): CiRun {
  return { runId: r.runId, startedAt: null, tests: r.tests.map((t) => ({ ...t, group: NO_GROUP, durationMs: null })) };
}

/** 0 every test passed; 1 at least one failed; 2 no verdict (a test could not run, or did not finish in time). */
export function exitCodeOf(runStatus: RunStatus, tests: readonly Pick<CiTestResult, 'status'>[]): number {
  // An incomplete scan is no verdict either (2): it found nothing over its thresholds in what it attacked.
  const verdicts = tests.map((t) => verdictOf(t.status));
  if (verdicts.includes('failed')) return CI_EXIT_CODES.failed;
  if (runStatus === 'passed' && verdicts.every((v) => v === 'passed')) return CI_EXIT_CODES.passed;
  return CI_EXIT_CODES.couldNotRun;
}

function summaryLine(run: CiRun, runStatus: RunStatus, code: number): string {
  const n = (v: string) => run.tests.filter((t) => verdictOf(t.status, t.error) === v).length;
  const unfinished = TERMINAL.has(runStatus) ? '' : ', the run was still going when the wait ended';
  const incomplete = n('incomplete') ? `, ${n('incomplete')} incomplete (scan)` : '';
  return `Fullstop QA run ${run.runId}: ${n('passed')} passed, ${n('failed')} failed${incomplete}, ${n('error')} could not run, ${n('skipped')} not run${unfinished} (exit ${code})`;
}

async function writeJunit(file: string | undefined, run: CiRun): Promise<void> {
  if (!file) return;
  await writeFile(file, runToJunit(run));
  console.log(`JUnit report: ${file}`);
}

/**
 * `fullstop run`: a client's tests, as an operator (--client, the operator token) or as the client's CI (--api-key
 * or FULLSTOP_API_KEY). With --wait (or --junit) the exit code is the verdict: 0 passed, 1 failed, 2 could not run.
 */
export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('run a client’s tests (all, or --test NAME); with --wait: exit 0 all passed, 1 a test failed, 2 could not run')
    .option('--client <id>', 'client id (with the operator token)')
    .addOption(new Option('--api-key <key>', "a client's API key instead of --client, as a client's CI does").env('FULLSTOP_API_KEY'))
    .option('--test <name>', 'one test by name')
    .option('--wait', 'wait for the run to end; the exit code says how it went', false)
    .option('--automated-only', 'leave the suite’s manual cases out: the run does not wait for a tester', false)
    .option('--after-deploy', 'a deploy’s run: once it ends, the site is crawled again and the suite’s patch proposed for review', false)
    .option('--junit <file>', 'with the run’s end, write a JUnit XML report there (implies --wait)')
    .option('--timeout <seconds>', 'longest wait (1-3600)', '1800')
    // CI services (GitHub Actions, GitLab, CircleCI, Travis, Buildkite ...) set CI in every job.
    .addOption(new Option('--ci', 'with --api-key: record the run as started by CI (on whenever CI is set)').env('CI'))
    .action(async (opts: RunOptions, cmd: Command) => {
      const wait = opts.wait || Boolean(opts.junit);
      const timeout = Number(opts.timeout);
      const ci = opts.ci !== undefined && String(opts.ci) !== 'false' && String(opts.ci) !== '0';
      try {
        if (!Number.isInteger(timeout) || timeout < 1 || timeout > 3600) throw new CouldNotRun('--timeout must be 1-3600 seconds');
        let run: CiRun;
        let status: RunStatus;
        let message: string;
        let deployLines: string[] = [];
        if (opts.client) {
          let res: RunResultResponse | RunQueuedResponse;
          try {
            res = await clientFor(cmd).post<RunResultResponse | RunQueuedResponse>(`/operator/clients/${encodeURIComponent(opts.client)}/runs`, {
              ...(opts.test ? { testName: opts.test } : {}),
              wait,
              timeout,
              automatedOnly: Boolean(opts.automatedOnly),
              afterDeploy: Boolean(opts.afterDeploy),
            });
          } catch (err) {
            throw err instanceof OperatorApiError ? new CouldNotRun(err.message) : err;
          }
          if (!('tests' in res)) return void console.log(res.message);
          run = fromResult(res);
          status = res.status;
          message = res.message;
        } else if (opts.apiKey) {
          const server = cmd.optsWithGlobals<{ server?: string }>().server ?? defaultServer();
          const { queued, detail, afterDeploy } = await runWithKey(server, opts.apiKey, { ...opts, wait, ci }, timeout);
          if (!detail) return void console.log(queued.message);
          run = fromDetail(detail);
          status = detail.status;
          message = detail.message;
          deployLines = afterDeploy?.words ?? [];
        } else {
          throw new CouldNotRun('say which client: --client <id> (operator) or --api-key <key> / FULLSTOP_API_KEY');
        }
        console.log(message);
        for (const t of run.tests) {
          // An incomplete scan has no checks to count: its words say what it did not attack.
          const incomplete = verdictOf(t.status, t.error) === 'incomplete';
          const totals = t.totals && !incomplete ? ` ${t.totals.passedTests}/${t.totals.totalTests} passed` : '';
          const shown = incomplete ? 'incomplete' : t.status;
          console.log(`  ${shown.padEnd(10)} ${t.testName}${totals}${t.error ? ` (${t.error.split('\n')[0]})` : ''}`);
        }
        if (deployLines.length > 0) console.log(['After the deploy:', ...deployLines.map((l) => `  ${l}`)].join('\n'));
        else if (opts.afterDeploy && opts.client) console.log('After the deploy: the site is crawled again once the run ends; its proposal is on the console’s Suites page.');
        const code = exitCodeOf(status, run.tests);
        await writeJunit(opts.junit, run);
        console.log(summaryLine(run, status, code));
        process.exitCode = code;
      } catch (err) {
        if (!(err instanceof CouldNotRun)) throw err;
        console.error(`fullstop: ${err.message}`);
        // The CI's test report still says why: one error case in place of the suite.
        await writeJunit(opts.junit, { runId: 'none', startedAt: null, tests: [{ group: NO_GROUP, testName: '(run)', status: 'error', durationMs: null, error: err.message, totals: null }] }).catch(() => undefined);
        console.log(`Fullstop QA: could not run (exit ${CI_EXIT_CODES.couldNotRun})`);
        process.exitCode = CI_EXIT_CODES.couldNotRun;
      }
    });
}
