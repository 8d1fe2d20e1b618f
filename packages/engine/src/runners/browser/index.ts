import { mkdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ValidationError } from '../../errors.ts';
import { runChild } from '../../lib/child-process.ts';
import { specWorkersWithin } from '../../lib/cell-weight.ts';
import { defineRunner } from '../../lib/define-runner.ts';
import { runnerFirefox } from '../../lib/warm-firefox.ts';
import { listFiles } from '../../lib/list-files.ts';
import type { TargetGuard } from '../../policy/target-guard.ts';
import { JAIL_PROXY_PORT } from '../../sandbox/net-jail.ts';
import type { RunTotals } from '@fullstop/contracts';
import type { Artifact, CaseResult, RunContext } from '../../types.ts';
import { errorMessage, totalsFromCases, writeJsonArtifact } from '../../lib/result.ts';
import { type BrowserPaths, browserPaths, sharedLaunchesFor, writeBrowserConfig } from './config.ts';
import { type BrowserHost, type CellProxies, startBrowserHost, startCellProxies } from './shared-browsers.ts';
import { casesFromReport, evidenceArtifact, type PlaywrightJsonReport } from './json-report.ts';
import type { RecordedSteps } from './steps-reporter.ts';
import { type BrowserOptions, browserInput, specsOf } from './options.ts';
import { facts } from './facts.ts';
import type { BrowserServersRecord } from './browser-servers.ts';
import { type Cell, cellsOf, isClassic, runsSpecs, type SpecEngine } from './matrix.ts';
import { runPageChecks } from './page-checks.ts';
import { cloudCellsOf, cloudHubOf, localDevicesOf, privateTargetRefusal } from './cloud-cells.ts';
import { CloudCells, type CloudSpecCells } from './cloud-session.ts';
import { collectHealing, prepareHealing } from './healing/attempt.ts';
import { suiteNeedsEsmLoader } from './module-mode.ts';

/** Time Playwright gets past its own global timeout to write its reports before it is killed. */
export const PLAYWRIGHT_EXIT_GRACE_MS = 30_000;

const require = createRequire(import.meta.url);
const playwrightCli = path.join(path.dirname(require.resolve('@playwright/test/package.json')), 'cli.js');
/** The node_modules folder holding @playwright/test: spec files outside the repository resolve it through NODE_PATH. */
export const PLAYWRIGHT_NODE_PATH = path.resolve(path.dirname(require.resolve('@playwright/test/package.json')), '..', '..');

/** What the Playwright part of a run gives: its cases, totals and artifacts, and what went wrong in the run itself. */
interface SpecsOutcome {
  cases: CaseResult[];
  totals: RunTotals;
  artifacts: Artifact[];
  runErrors: string[];
  timedOut: boolean;
  durationMs: number;
}

/** The spec files on the Chromium and Firefox cells, in Playwright's test runner (a child process). */
async function runSpecs(p: {
  specs: string | string[];
  cells: Cell[];
  classic: boolean;
  options: BrowserOptions;
  suiteDir: string;
  baseUrl: string;
  paths: BrowserPaths;
  ctx: RunContext;
  guard: TargetGuard;
  firefox: boolean;
  /** Cloud cells whose provider runs Playwright (decision 0106), and how their connections reach it. */
  cloud?: CloudSpecCells;
  /** The cell proxies the test's page checks use too (shared-browsers.ts), the caller's to close; unset: the specs' own. */
  proxies?: CellProxies;
  /** The attempt's browser host, serving the engines it launched to the specs' workers too. */
  host?: BrowserHost;
}): Promise<SpecsOutcome> {
  const { options, paths, ctx, guard } = p;
  const relay = p.cloud ? await p.cloud.startRelay(ctx.workers) : null;
  // A proxy per shaped network: a cell's traffic is shaped by its own network only.
  const cellProxies =
    p.proxies ??
    (await startCellProxies(guard, p.cells.map((c) => c.network)).catch(async (error: unknown) => {
      await relay?.close();
      throw error;
    }));
  const { unshaped: proxy, shaped } = cellProxies;
  let output = '';
  try {
    // The client's specs (and the Playwright, Chromium and Firefox they drive) run in a network namespace whose only
    // ways out are these proxies, each at a port of its own inside (sandbox/net-jail.ts); a `fetch` of the API's,
    // the database's or the metadata address finds nothing there. Unjailed where the kernel refuses the namespace.
    const proxies = cellProxies.all;
    const forwards = cellProxies.forwards();
    const urlOf = cellProxies.urlOf;
    // The browser host's servers, at the same port inside as outside (shared-browsers.ts).
    const hosted = p.host?.specs() ?? { env: {}, forwards: [] };
    if (forwards) forwards.push(...hosted.forwards);
    // The cloud relay is reached like the proxies: a port of its own inside the jail, its Unix socket outside.
    const relayPort = relay && forwards ? JAIL_PROXY_PORT + proxies.length : relay?.port;
    if (relay && forwards) forwards.push({ port: relayPort!, socket: relay.socketPath });
    const cloudProjects = relay && p.cloud ? p.cloud.cells.map((cell) => ({ cell, wsEndpoint: `ws://127.0.0.1:${relayPort}${relay.pathOf(cell.index)}` })) : [];
    const networkProxyUrls = Object.fromEntries([...shaped].map(([network, s]) => [network, urlOf(s)]));
    // Fingerprints of every call site, and heals with the last passing run's (decision 0101); benches may turn both off.
    const healing = ctx.healingFingerprints !== false;
    const healingEnv = healing
      ? await prepareHealing({ paths, suiteDir: p.suiteDir, mode: options.healing, fingerprints: ctx.healingFingerprints || undefined, log: ctx.log })
      : {};
    // Cells that wait run together (issue 40): more workers than cores where every spec cell is on a shaped network,
    // each cell held to the workers it had. Not beside cloud cells, whose relay takes `ctx.workers` sessions.
    const workers = ctx.specWorkers ?? (ctx.browserPerCell || cloudProjects.length > 0 ? ctx.workers : specWorkersWithin(ctx.workers, p.cells.map((c) => c.network)));
    const raised = workers > ctx.workers;
    if (raised) ctx.log('spec workers', { workers, cells: p.cells.length, cores: ctx.workers });
    await writeBrowserConfig({
      paths,
      suiteDir: p.suiteDir,
      options: { ...options, specs: p.specs },
      cells: p.cells,
      classic: p.classic,
      baseUrl: p.baseUrl,
      chromiumPath: ctx.chromiumPath,
      firefoxPath: runnerFirefox(ctx),
      workers,
      ...(raised ? { workersPerCell: ctx.workers } : {}),
      proxyUrl: urlOf(proxy),
      networkProxyUrls,
      healing,
      ...(ctx.login ? { login: ctx.login } : {}),
      ...(ctx.browserPerCell ? { browserPerWorker: true } : {}),
      ...(cloudProjects.length ? { cloudProjects } : {}),
    });
    const esm = await suiteNeedsEsmLoader(p.suiteDir);
    const existing = process.env.NODE_PATH;
    const child = await runChild(process.execPath, [playwrightCli, 'test', '--config', paths.config], {
      cwd: paths.dir,
      env: {
        ...process.env,
        ...(p.firefox ? { HOME: paths.home } : {}),
        NODE_PATH: existing ? `${PLAYWRIGHT_NODE_PATH}${path.delimiter}${existing}` : PLAYWRIGHT_NODE_PATH,
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
        // Compiled files cached in the attempt's folder, never in one a later attempt of another client reads.
        PWTEST_CACHE_DIR: paths.transformCache,
        PLAYWRIGHT_HTML_OPEN: 'never',
        // Playwright's ES module loader only for a suite of ES modules (module-mode.ts): 0.5 CPU-s a process otherwise.
        ...(esm ? {} : { PW_DISABLE_TS_ESM: '1' }),
        FORCE_COLOR: '0',
        CI: '1',
        ...healingEnv,
        ...hosted.env,
      },
      signal: ctx.signal,
      timeoutMs: options.maxDurationSeconds * 1000 + PLAYWRIGHT_EXIT_GRACE_MS,
      onOutput: (chunk) => {
        output += chunk;
      },
      jail: forwards ? { forwards } : null,
    });
    const shared = await readFile(paths.browserServers, 'utf8')
      .then((text) => JSON.parse(text) as BrowserServersRecord)
      .catch(() => null);
    if (shared) {
      ctx.log('spec browsers started', Object.fromEntries(Object.entries(shared.launchMs).map(([engine, launches]) => [engine, launches.length])));
      ctx.log('spec browsers launched in (ms)', shared.launchMs);
      if (Object.keys(shared.failed).length > 0) ctx.log('spec browsers not shared: their launch failed, each worker launched its own', shared.failed);
    }
    const refused = new Set(proxies.flatMap((x) => [...x.refused]));
    if (refused.size > 0) ctx.log('browser requests refused by the target policy', { urls: [...refused].slice(0, 20) });

    let report: PlaywrightJsonReport;
    try {
      report = JSON.parse(await readFile(paths.json, 'utf8')) as PlaywrightJsonReport;
    } catch {
      throw new Error(`Playwright wrote no report (exit ${child.code}${child.timedOut ? ', timed out' : ''}): ${output.slice(-1000)}`);
    }
    const stats = report.stats;
    if (!stats) throw new Error('Playwright report has no stats');
    // The steps are detail: a run whose steps file is missing or torn still reports its cases.
    const steps = await readFile(paths.steps, 'utf8')
      .then((text) => JSON.parse(text) as RecordedSteps)
      .catch(() => undefined);
    const healed = healing ? await collectHealing({ paths, report, cells: !p.classic, runDir: ctx.runDir }) : null;
    if (healed && healed.healed > 0) ctx.log('locators healed', { heals: healed.healed, mode: options.healing });
    const read = casesFromReport(report, { runDir: ctx.runDir, cells: !p.classic, ...(steps ? { steps } : {}), ...(healed ? { heals: healed.heals } : {}) });
    const { evidence } = read;
    // A cloud cell the server gave no spec session (the client's cap of cloud minutes per run): its relay refused the
    // connection, and its cases are skipped with why, as the cell's page checks are.
    const notStarted = p.cloud?.notStarted() ?? new Map<string, string>();
    let unrun = 0;
    const cases = read.cases.map((c) => {
      const why = c.cell === undefined ? undefined : notStarted.get(c.cell);
      if (why === undefined || c.status !== 'failed') return c;
      unrun += 1;
      return { ...c, status: 'skipped' as const, error: why };
    });
    const totals = {
      totalTests: stats.expected + stats.unexpected + stats.flaky + stats.skipped,
      passedTests: stats.expected + stats.flaky,
      failedTests: stats.unexpected - unrun,
      skippedTests: stats.skipped + unrun,
    };
    const runErrors = (report.errors ?? []).map((e) => e.message ?? '').filter(Boolean);
    if (totals.totalTests === 0) throw new Error(runErrors[0] ?? `no tests matched ${JSON.stringify(p.specs)} in the suite`);

    const rel = (f: string) => path.relative(ctx.runDir, f);
    const files = await listFiles(paths.results, ctx.runDir);
    const claimed = new Set(evidence.map((e) => e.path));
    const artifacts: Artifact[] = [
      { path: rel(paths.htmlReport), kind: 'html-report', contentType: 'text/html', label: 'Playwright HTML report', directory: true },
      { path: rel(paths.json), kind: 'json', contentType: 'application/json', label: 'Playwright JSON report' },
      { path: rel(paths.junit), kind: 'junit', contentType: 'application/xml', label: 'Playwright JUnit report' },
      // Each case's trace and screenshot, named after it; any other the test wrote itself, unnamed.
      ...evidence.map((e) => evidenceArtifact(e.path, e.kind, e.label)),
      ...files.filter((f) => f.endsWith('.zip') && !claimed.has(f)).map((f) => evidenceArtifact(f, 'trace')),
      ...files.filter((f) => f.endsWith('.png') && !claimed.has(f)).map((f) => evidenceArtifact(f, 'screenshot')),
      ...(healed?.artifacts ?? []),
    ];
    return { cases, totals, artifacts, runErrors, timedOut: child.timedOut, durationMs: stats.duration };
  } finally {
    if (!p.proxies) await cellProxies.close();
    if (relay) {
      await relay.close();
      await p.cloud!.ended(relay);
    }
    // Compiled files are no evidence: they would only weigh on the run folder.
    await rm(paths.transformCache, { recursive: true, force: true });
  }
}

/**
 * The test's cell proxies and its browser host (shared-browsers.ts), for its spec files and page checks alike; null
 * when the host did not start (each part then starts its own, as before).
 */
async function startShared(p: { specCells: Cell[]; cells: Cell[]; classic: boolean; options: BrowserOptions; ctx: RunContext; guard: TargetGuard; paths: BrowserPaths }): Promise<{ proxies: CellProxies; host: BrowserHost } | null> {
  const { ctx } = p;
  const proxies = await startCellProxies(p.guard, p.cells.map((c) => c.network));
  const launches = sharedLaunchesFor(p.specCells, { chromiumPath: ctx.chromiumPath, firefoxPath: runnerFirefox(ctx), proxyUrl: proxies.urlOf(proxies.unshaped), classic: p.classic }, p.options);
  const host = await startBrowserHost({ launches, proxies, guard: p.guard, ctx, home: p.paths.home, cwd: p.paths.dir }).catch((error: unknown) => {
    ctx.log('the browser host did not start: each part launches its own', { error: errorMessage(error).split('\n')[0] });
    return null;
  });
  if (host) return { proxies, host };
  await proxies.close();
  return null;
}

/** Both parts' outcomes once both have ended: the first error, if any, after the other part has ended too. */
async function bothSettled<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
  return [x.value, y.value];
}

/**
 * @playwright/test in a child process, with a config generated into the run folder, for the spec files on the
 * Chromium and Firefox cells; then the page checks (decision 0079) on every cell, WebKit's included. Totals come
 * from Playwright's own stats and the page checks' cases; cases (for JUnit and the portal) from Playwright's JSON
 * report and the page checks. The browsers reach only what the target policy allows, through a proxy every request
 * goes through.
 */
export const browserRunner = defineRunner({
  facts,
  schema: browserInput,
  async execute({ options }, { test, target, ctx, guard }) {
    const specs = specsOf(options);
    if (specs !== null && !test.suiteDir) throw new ValidationError({ field: 'suiteDir', reason: 'a browser test needs the folder of its spec files' });
    // Cloud cells (decision 0100) need the client's device cloud, and a site its browsers can reach: said before
    // anything starts, in words about them (the policy's own refusal of a private site would not name them).
    const cloudCells = cloudCellsOf(options.devices);
    const hub = cloudCells.length > 0 ? cloudHubOf(target) : null;
    if (cloudCells.length > 0) {
      const named = cloudCells.map((c) => c.label).join(', ');
      if (!hub) throw new ValidationError({ field: 'options.devices', reason: `the cloud devices (${named}) need a device cloud: an operator sets one on the client’s page (Mobile devices: BrowserStack, Sauce Labs or AWS Device Farm)` });
      const refusal = await privateTargetRefusal(target, hub.url, ctx.network);
      if (refusal) throw new ValidationError({ field: 'options.devices', reason: `the cloud devices (${named}) cannot test this site: ${refusal}` });
    }
    const baseUrl = (await guard.check(target.baseUrl)).href;
    const paths = browserPaths(ctx.runDir);
    await mkdir(paths.dir, { recursive: true });
    const deadline = Date.now() + options.maxDurationSeconds * 1000;
    const cells = cellsOf(options.engines, localDevicesOf(options.devices), options.networks);
    // A test on Chromium on the desktop alone keeps the names of before (no cell in its cases' names).
    const classic = isClassic(cells) && cloudCells.length === 0;
    const specCells = cells.filter((c) => runsSpecs(c.engine));
    const firefox = options.engines.includes('firefox') && cells.length > 0;
    const withSpecs = specs !== null && specCells.length > 0;
    // Spec files and page checks on one browser an engine (decision 0110); the bench's browser a cell shares none.
    const share = withSpecs && options.pages !== undefined && !ctx.browserPerCell && ctx.browserHost !== false;
    // Firefox and WebKit write below HOME (caches, databases), which a runner user may not have: one of the run's own.
    const home = firefox || share || (options.engines.includes('webkit') && cells.length > 0);
    const cloud = hub ? { cells: cloudCells, run: new CloudCells({ hub, cells: cloudCells, target, ctx, testName: test.name, testTimeoutMs: options.testTimeoutMs, deadline }) } : undefined;
    if (home) await mkdir(paths.home, { recursive: true });
    const cloudSpecs = cloud && specs !== null && specCells.length > 0 ? cloud.run.specCells() : undefined;
    const started = performance.now();
    let shared: { proxies: CellProxies; host: BrowserHost } | null = null;
    try {
      if (share) shared = await startShared({ specCells, cells, classic, options, ctx, guard, paths });
      // The spec files keep their Playwright workers busy (a core each); the page checks run beside them when the
      // attempt holds a core more than that (issue 40: a matrix heavier than the machine holds all of it), else after.
      const cores = Math.max(1, ctx.cores ?? 1);
      const together = withSpecs && options.pages !== undefined && cores >= ctx.workers + 1;
      const runSpecPart = () => (withSpecs ? runSpecs({ specs, cells: specCells, classic, options, suiteDir: test.suiteDir!, baseUrl, paths, ctx, guard, firefox, ...(cloudSpecs ? { cloud: cloudSpecs } : {}), ...(shared ? { proxies: shared.proxies, host: shared.host } : {}) }) : Promise.resolve(null));
      const runPagePart = () =>
        options.pages
          ? runPageChecks(cells, options, {
              guard,
              ctx,
              home: paths.home,
              dir: paths.dir,
              named: !classic,
              deadline,
              cores: together ? cores - ctx.workers : cores,
              ...(ctx.browserPerCell ? { browserPerCell: true } : {}),
              ...(cloud ? { cloud } : {}),
              ...(shared ? { shared: { proxies: shared.proxies, connect: (engine: SpecEngine) => shared!.host.connect(engine) } } : {}),
            })
          : Promise.resolve(null);
      const [specPart, pagePart] = together ? await bothSettled(runSpecPart(), runPagePart()) : [await runSpecPart(), await runPagePart()];
      const cases = [...(specPart?.cases ?? []), ...(pagePart?.cases ?? [])];
      const pageTotals = totalsFromCases(pagePart?.cases ?? []);
      const totals = specPart
        ? {
            totalTests: specPart.totals.totalTests + pageTotals.totalTests,
            passedTests: specPart.totals.passedTests + pageTotals.passedTests,
            failedTests: specPart.totals.failedTests + pageTotals.failedTests,
            skippedTests: specPart.totals.skippedTests + pageTotals.skippedTests,
          }
        : pageTotals;
      const artifacts: Artifact[] = [...(specPart?.artifacts ?? [])];
      if (pagePart) {
        artifacts.push(await writeJsonArtifact(ctx, 'browser/page-checks.json', { checks: options.pageChecks, pages: pagePart.raw }, 'Page checks'));
        artifacts.push(...pagePart.evidence.map((e) => evidenceArtifact(e.path, e.kind, e.label)));
      }
      cloud?.run.settle();
      const runErrors = specPart?.runErrors ?? [];
      const failed = totals.failedTests > 0 || runErrors.length > 0 || specPart?.timedOut === true;
      return {
        status: failed ? 'failed' : 'passed',
        totals,
        durationMs: specPart && !pagePart ? specPart.durationMs : performance.now() - started,
        summary: { kind: 'browser', cases, ...(cloud ? { cloudCells: cloud.run.summaries } : {}) },
        artifacts,
        ...(runErrors.length > 0 ? { error: runErrors.join('\n').slice(0, 4000) } : {}),
      };
    } finally {
      await shared?.host.close();
      await shared?.proxies.close();
      // Firefox's and WebKit's caches are no evidence: they would only weigh on the run folder.
      if (home) await rm(paths.home, { recursive: true, force: true });
    }
  },
});

/** The name the registry and the runner processes load a kind's runner by. */
export { browserRunner as runner };
