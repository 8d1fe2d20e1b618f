import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { playwrightChromiumArgs, runnerChromium } from '../../lib/chromium.ts';
import { FIREFOX_BIDI, GUARDED_FIREFOX_PREFS } from '../../lib/firefox.ts';
import { entryFile } from '../../sandbox/entry-file.ts';
import { loginContextOptions, type LoginSession } from '../../lib/login-session.ts';
import { type CloudCell, localDevicesOf, playwrightBrowserOf } from './cloud-cells.ts';
import { deviceUse } from './devices.ts';
import { type Cell, cellsOf, isClassic, type Network } from './matrix.ts';
import { type BrowserOptions, DEFAULT_SPECS } from './options.ts';
import { hookFiles } from './healing/own-files.ts';
import { BROWSER_SERVERS_ENV, BROWSER_SERVERS_RECORD_ENV, browserWsVar, SHARED_LAUNCH_TIMEOUT_MS } from './browser-servers.ts';

export interface BrowserPaths {
  dir: string;
  config: string;
  json: string;
  steps: string;
  junit: string;
  htmlReport: string;
  results: string;
  /** HOME of the Playwright process when Firefox runs: Firefox writes there, and a runner user may have none. */
  home: string;
  /** The healing hook's folder (decision 0101): its setup, the fingerprints it heals with, workers' records and heal screenshots. */
  healing: string;
  /** Each call site's fingerprint from the attempt's passing tests, and the attempt's heals (contracts' healing.ts). */
  fingerprints: string;
  heals: string;
  /** What the spec files' shared browsers' setup recorded (browser-servers.ts): how many it launched an engine. */
  browserServers: string;
  /**
   * Playwright's cache of compiled files (PWTEST_CACHE_DIR), the attempt's own. Its default, a folder of the runner
   * user's in /tmp, outlives the attempt: a client's spec could leave compiled code there that a later attempt of
   * another client, run by the same user, would load as a file of its own.
   */
  transformCache: string;
}

/** The reporter that records each test's steps (Playwright's JSON report keeps only `test.step()` blocks). */
const STEPS_REPORTER = entryFile('steps-reporter');
/** The module that fingerprints and heals locators in Playwright's workers (healing/hook.ts). */
const HEALING_HOOK = entryFile('healing-hook');
/** Playwright's globalSetup that launches one browser an engine for every cell's workers (browser-servers.ts). */
const BROWSER_SERVERS = entryFile('browser-servers');

/** How long a cloud cell's project waits for the provider's browser: a desktop is found and started (minutes at worst). */
export const CLOUD_CONNECT_TIMEOUT_MS = 5 * 60_000;

export function browserPaths(runDir: string): BrowserPaths {
  const dir = path.join(runDir, 'browser');
  return {
    dir,
    config: path.join(dir, 'playwright.config.mjs'),
    json: path.join(dir, 'results.json'),
    steps: path.join(dir, 'steps.json'),
    junit: path.join(dir, 'junit.xml'),
    htmlReport: path.join(dir, 'html-report'),
    results: path.join(dir, 'test-results'),
    home: path.join(dir, 'home'),
    healing: path.join(dir, 'healing'),
    fingerprints: path.join(dir, 'fingerprints.json'),
    heals: path.join(dir, 'heals.json'),
    browserServers: path.join(dir, 'browser-servers.json'),
    transformCache: path.join(dir, 'transform-cache'),
  };
}

/**
 * A policy proxy's address inside the network namespace the specs run in when jailed (sandbox/net-jail.ts): the
 * forwarder at 127.0.0.1:`port` there, whose connections reach the proxy's Unix socket. The config's every `proxy`
 * (the shared one and each network's) is then such an address; unjailed, the proxy's own `url`.
 */
export function inJailProxyUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

function chromiumUse(executablePath: string) {
  return { launchOptions: { executablePath, args: playwrightChromiumArgs(runnerChromium().args), chromiumSandbox: runnerChromium().sandbox } };
}

/**
 * One cell's project: its engine (Debian's Chromium, or Debian's Firefox over BiDi), its device and the proxy of
 * its network. Firefox's proxy takes no `<-loopback>` rule; its prefs send loopback through the proxy instead
 * (lib/firefox.ts).
 */
function cellProject(cell: Cell, p: { chromiumPath: string; firefoxPath: string; proxyUrl: string; networkProxyUrls?: Partial<Record<Network, string>> }, options: BrowserOptions) {
  const proxyUrl = p.networkProxyUrls?.[cell.network] ?? p.proxyUrl;
  const device = deviceUse(cell.device, cell.engine);
  // The test's own viewport holds on the desktop (validation refuses it with other devices).
  const use = { ...device, ...(options.viewport ? { viewport: options.viewport } : {}) };
  if (cell.engine === 'chromium') return { name: cell.name, use: { ...use, ...chromiumUse(p.chromiumPath), proxy: { server: proxyUrl, bypass: '<-loopback>' } } };
  // WebKit runs no spec (decision 0079): the runner gives only Chromium and Firefox cells.
  if (cell.engine !== 'firefox') throw new Error(`Playwright does not drive ${cell.engine} here`);
  return {
    name: cell.name,
    use: {
      ...use,
      ...FIREFOX_BIDI,
      proxy: { server: proxyUrl },
      launchOptions: { executablePath: p.firefoxPath, firefoxUserPrefs: GUARDED_FIREFOX_PREFS },
    },
  };
}

/**
 * A Playwright config generated per run: the suite's spec files, the run's folders for every output, Debian
 * Chromium, and the policy proxy in front of every request the browser makes.
 */
export async function writeBrowserConfig(p: {
  paths: BrowserPaths;
  suiteDir: string;
  options: BrowserOptions;
  baseUrl: string;
  chromiumPath: string;
  firefoxPath: string;
  workers: number;
  /**
   * The most workers one cell (a project) may hold when `workers` runs several cells at once (lib/cell-weight.ts
   * `specWorkersWithin`); unset: no limit a project, Playwright's default.
   */
  workersPerCell?: number;
  /** The policy proxy as the specs reach it: its `url`, or `inJailProxyUrl(port)` when they run jailed. */
  proxyUrl: string;
  /** The proxy shaping each network the test names, when it is not the unshaped one at `proxyUrl`. */
  networkProxyUrls?: Partial<Record<Network, string>>;
  /** The attempt's login: every test's browser context starts with its cookies, storage and headers. */
  login?: LoginSession;
  /** The cells that run the specs (Chromium's and Firefox's); unset: every cell of the options. */
  cells?: Cell[];
  /** Whether the test (all its cells, WebKit's too) is Chromium on the desktop only; unset: computed from `cells`. */
  classic?: boolean;
  /** Whether the workers load the healing hook (decision 0101); its setup is named by the child's environment. */
  healing?: boolean;
  /** Whether every worker launches its own browser, as before issue 40 (benches only, `RunContext.browserPerCell`). */
  browserPerWorker?: boolean;
  /** Cloud cells whose provider runs Playwright (decision 0106): each a project connected to the runner's relay. */
  cloudProjects?: { cell: CloudCell; wsEndpoint: string }[];
}): Promise<void> {
  const { paths, options } = p;
  const cells = p.cells ?? cellsOf(options.engines, localDevicesOf(options.devices), options.networks);
  const classic = p.classic ?? isClassic(cells);
  const cloud = p.cloudProjects ?? [];
  // Our proxy and the suite's login are the local cells' only: a cloud browser is on the provider's network, and the
  // login's cookies would be written in the provider's logs (decision 0100).
  const localUse = { proxy: { server: p.proxyUrl, bypass: '<-loopback>' }, ...(p.login ? loginContextOptions(p.login) : {}) };
  const config = {
    testDir: p.suiteDir,
    testMatch: Array.isArray(options.specs) ? options.specs : [options.specs ?? DEFAULT_SPECS],
    ...(options.grep ? { grep: options.grep } : {}),
    outputDir: paths.results,
    fullyParallel: true,
    forbidOnly: true,
    workers: p.workers,
    // The healing hook's files, left to Node rather than compiled by Babel in every worker (healing/own-files.ts).
    build: { external: hookFiles() },
    retries: options.retries,
    timeout: options.testTimeoutMs,
    globalTimeout: options.maxDurationSeconds * 1000,
    reporter: [
      ['json', { outputFile: paths.json }],
      [STEPS_REPORTER, { outputFile: paths.steps }],
      // A matrix's JUnit names each test's cell: "[firefox/phone] home.spec.ts › …".
      ['junit', { outputFile: paths.junit, ...(classic ? {} : { includeProjectInTestName: true }) }],
      ['html', { outputFolder: paths.htmlReport, open: 'never' }],
      ['line'],
    ],
    use: {
      baseURL: p.baseUrl,
      headless: true,
      trace: 'retain-on-failure',
      screenshot: 'only-on-failure',
      ...(options.viewport ? { viewport: options.viewport } : {}),
      ...(cloud.length === 0 ? localUse : {}),
    },
    projects: [
      ...(classic ? [{ name: 'chromium', use: chromiumUse(p.chromiumPath) }] : cells.map((cell) => ({ ...cellProject(cell, p, options), ...(p.workersPerCell ? { workers: p.workersPerCell } : {}) }))).map((project) =>
        cloud.length === 0 ? project : { ...project, use: { ...localUse, ...project.use } },
      ),
      ...cloud.map(({ cell, wsEndpoint }) => ({ name: cell.name, use: { browserName: playwrightBrowserOf(cell), connectOptions: { wsEndpoint, timeout: CLOUD_CONNECT_TIMEOUT_MS } } })),
    ],
  };
  // The grep option is a string in the manifest; Playwright wants a RegExp.
  // The hook loads with the config, in every worker, before any spec (a path of ours, never the suite's).
  const hook = p.healing ? `import ${JSON.stringify(pathToFileURL(HEALING_HOOK).href)};\n` : '';
  const shared = p.browserPerWorker ? '' : sharedBrowsersSource(config, p.proxyUrl, paths);
  const source = `${hook}const config = ${JSON.stringify(config, null, 2)};\nif (typeof config.grep === 'string') config.grep = new RegExp(config.grep);\n${shared}export default config;\n`;
  await writeFile(paths.config, source);
}

interface ProjectUse {
  browserName?: string;
  connectOptions?: unknown;
  channel?: string;
  launchOptions?: Record<string, unknown>;
}

/**
 * The config's part that shares one browser an engine between the workers (browser-servers.ts): each engine's launch
 * options for the setup (those its projects gave their workers, and the unshaped proxy as the browser's own for any
 * request outside a context), and, where the setup named a shared browser in the environment, each project connects
 * to it. Evaluated in the Playwright process (before the setup: it names nothing yet) and again in each worker.
 */
function sharedBrowsersSource(config: { projects: { use: ProjectUse }[] }, proxyUrl: string, paths: BrowserPaths): string {
  const launches = launchesOf(config.projects, proxyUrl);
  const wsVars = Object.fromEntries(Object.keys(launches).map((name) => [name, browserWsVar(name)]));
  return [
    `config.globalSetup = ${JSON.stringify(BROWSER_SERVERS)};`,
    // An engine the attempt's browser host serves (shared-browsers.ts) is named in the environment already: not launched here.
    `const launches = ${JSON.stringify(launches)};`,
    `const wsVars = ${JSON.stringify(wsVars)};`,
    `process.env.${BROWSER_SERVERS_ENV} = JSON.stringify(Object.fromEntries(Object.entries(launches).filter(([name]) => !process.env[wsVars[name]])));`,
    `process.env.${BROWSER_SERVERS_RECORD_ENV} = ${JSON.stringify(paths.browserServers)};`,
    // A cloud cell's project keeps its connection to the relay (decision 0106).
    `for (const project of config.projects.filter((x) => !x.use.connectOptions)) {`,
    `  const ws = process.env[wsVars[project.use.browserName ?? 'chromium']];`,
    `  if (ws) project.use.connectOptions = { wsEndpoint: ws, timeout: ${SHARED_LAUNCH_TIMEOUT_MS} };`,
    `}`,
    '',
  ].join('\n');
}

/**
 * Each engine's launch options for a shared browser: those its projects gave their workers, and the unshaped proxy
 * as the browser's own for any request outside a context. Cloud projects (already connected) launch nothing.
 */
function launchesOf(projects: { use: ProjectUse }[], proxyUrl: string): Record<string, Record<string, unknown>> {
  const launches: Record<string, Record<string, unknown>> = {};
  for (const { use } of projects) {
    if (use.connectOptions) continue;
    const browserName = use.browserName ?? 'chromium';
    const proxy = browserName === 'chromium' ? { server: proxyUrl, bypass: '<-loopback>' } : { server: proxyUrl };
    launches[browserName] ??= { ...use.launchOptions, ...(use.channel ? { channel: use.channel } : {}), proxy };
  }
  return launches;
}

/** The shared browsers' launch options of a test's spec cells, as its config's setup would launch them: for the browser host. */
export function sharedLaunchesFor(cells: readonly Cell[], p: { chromiumPath: string; firefoxPath: string; proxyUrl: string; classic: boolean }, options: BrowserOptions): Record<string, Record<string, unknown>> {
  const projects = p.classic ? [{ use: chromiumUse(p.chromiumPath) as ProjectUse }] : cells.map((cell) => cellProject(cell, p, options));
  return launchesOf(projects, p.proxyUrl);
}
