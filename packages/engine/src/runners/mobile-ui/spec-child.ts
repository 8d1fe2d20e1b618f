/**
 * The spec process of a mobile UI test (one per device): a WebdriverIO session on the Appium endpoint, and the
 * suite's spec files run in Mocha against it, as Appium users write them (`describe`/`it`, the globals `driver`,
 * `browser`, `$` and `$$`). After each `it` (a step) a screenshot; after a failed one, the page source. The
 * session's id is written as soon as there is one, so the runner ends it if this process cannot (killed at the
 * attempt's time limit); this process ends it itself in every other case. Started by path (entry-file.ts): of the
 * engine it imports only child-protocol.ts.
 *
 * Usage: node spec-child.ts <config.json>
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire, registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Mocha from 'mocha';
import type * as Undici from 'undici';
import { remote } from 'webdriverio';
import type { ChildCase, ChildResult, ChildStep, SessionNote, SpecChildConfig } from './child-protocol.ts';
import { APPIUM_KEY_VAR, APPIUM_USER_VAR } from './child-protocol.ts';

type Browser = Awaited<ReturnType<typeof remote>>;

/** How long the evidence after a step (screenshot, page source) may take: a hung session does not hold the run. */
const EVIDENCE_TIMEOUT_MS = 15_000;
const MAX_STEPS_PER_CASE = 100;
/** The longest delay a timer takes (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Commands the runner issues itself, or that only read: not a step of the spec's. */
const QUIET_COMMANDS = new Set(['takeScreenshot', 'getPageSource', 'getElementAttribute', 'getElementProperty', 'isElementDisplayed', 'getElementText', 'findElement', 'findElements', 'findElementFromElement', 'findElementsFromElement']);

/**
 * What a spec file imports by name resolves to this process's own packages, wherever the suite's folder is (outside
 * any node_modules): `mocha` (describe, it, hooks), `webdriverio`, and `@wdio/globals` (driver, browser, $, $$ of
 * this session, as WDIO's test runner gives them).
 */
const own = createRequire(import.meta.url);
const WDIO_GLOBALS = `data:text/javascript,${encodeURIComponent(
  ['driver', 'browser', '$', '$$'].map((name) => `export const ${name} = globalThis[${JSON.stringify(name)}];`).join('\n'),
)}`;
const RESOLVED: Record<string, string> = {
  mocha: pathToFileURL(own.resolve('mocha')).href,
  webdriverio: import.meta.resolve('webdriverio'),
  '@wdio/globals': WDIO_GLOBALS,
};
registerHooks({
  resolve(specifier, context, next) {
    const url = RESOLVED[specifier];
    return url ? { url, shortCircuit: true, format: url.startsWith('data:') ? 'module' : undefined } : next(specifier, context);
  },
});

const config = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as SpecChildConfig;

// A step that timed out may still reject later (its command answered after the session ended): said, not fatal, so
// the evidence and the result of every other step are still written.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`a spec's promise rejected after its step: ${reason instanceof Error ? reason.message : String(reason)}\n`);
});

/** Every connection of WebdriverIO goes to the endpoint's approved addresses only (webdriver uses a custom global dispatcher as it is). */
async function pinConnections(): Promise<void> {
  const requireFromWebdriver = createRequire(createRequire(import.meta.url).resolve('webdriver'));
  const undici = requireFromWebdriver('undici') as typeof Undici;
  const { hostname, addresses } = config.pinned;
  const lookup = (host: string, options: { all?: boolean; family?: number | string }, callback: (...args: unknown[]) => void) => {
    if (host.replace(/^\[|\]$/g, '').toLowerCase() !== hostname) {
      callback(Object.assign(new Error(`${host} is not the Appium endpoint`), { code: 'ENOTFOUND' }), []);
      return;
    }
    if (options?.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
  class PinnedAgent extends undici.Agent {}
  undici.setGlobalDispatcher(
    new PinnedAgent({ connect: { lookup: lookup as never }, connectTimeout: config.commandTimeoutMs, headersTimeout: config.commandTimeoutMs, bodyTimeout: config.commandTimeoutMs }),
  );
}

function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function writeSession(note: SessionNote): Promise<void> {
  await writeFile(config.sessionFile, JSON.stringify(note));
}

/** Memory (PSS, kB) and CPU (user + kernel, %) of the app, where the driver reports them (UiAutomator2's getPerformanceData). */
async function performanceOf(browser: Browser, caps: Record<string, unknown>): Promise<ChildResult['performance']> {
  const pkg = caps['appPackage'] ?? caps['appium:appPackage'];
  const none = (note: string) => ({ memoryKb: null, cpuPercent: null, note });
  if (typeof pkg !== 'string') return none('not reported by this device');
  try {
    const types = (await bounded(browser.getPerformanceDataTypes(), EVIDENCE_TIMEOUT_MS, 'getPerformanceDataTypes')) as string[];
    const read = async (type: string, column: (head: string[]) => number[]): Promise<number | null> => {
      if (!types.includes(type)) return null;
      const table = (await bounded(browser.getPerformanceData(pkg, type, 5), EVIDENCE_TIMEOUT_MS, 'getPerformanceData')) as unknown as unknown[][];
      const head = (table[0] ?? []).map(String);
      const row = table[1] ?? [];
      const values = column(head).map((i) => Number(row[i]));
      return values.length && values.every(Number.isFinite) ? values.reduce((a, b) => a + b, 0) : null;
    };
    const memoryKb = await read('memoryinfo', (head) => [head.indexOf('totalPss')].filter((i) => i >= 0));
    const cpuPercent = await read('cpuinfo', (head) => ['user', 'kernel'].map((h) => head.indexOf(h)).filter((i) => i >= 0));
    return { memoryKb, cpuPercent, note: memoryKb === null && cpuPercent === null ? 'not reported by this device' : null };
  } catch {
    return none('not reported by this device');
  }
}

/** Where a spec file failed to load and why: "broken.spec.ts:5: Expression expected" (a syntax error's stack starts with its place). */
function loadErrorOf(error: unknown): string {
  const first = error instanceof Error ? (error.stack?.split('\n')[0] ?? '') : '';
  const place = /^(?:file:\/\/)?(\/\S+:\d+)$/.exec(first)?.[1];
  return place ? `${path.relative(process.cwd(), place)}: ${message(error)}` : message(error);
}

function fullTitle(test: Mocha.Test): string {
  const file = test.file ? path.basename(test.file) : '';
  return [file, ...test.titlePath()].filter(Boolean).join(' › ');
}

async function main(): Promise<ChildResult> {
  await mkdir(config.outDir, { recursive: true });
  await pinConnections();
  const url = new URL(config.endpoint);
  const user = process.env[APPIUM_USER_VAR];
  const key = process.env[APPIUM_KEY_VAR];
  const started = performance.now();
  const result: ChildResult = {
    cases: [],
    sessionCapabilities: {},
    sessionStartMs: null,
    coldStartMs: null,
    performance: { memoryKb: null, cpuPercent: null, note: 'not reported by this device' },
    sessionEnded: false,
  };
  let browser: Browser;
  try {
    browser = await remote({
      protocol: url.protocol.replace(':', ''),
      hostname: url.hostname,
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      path: url.pathname,
      ...(user ? { user } : {}),
      ...(key ? { key } : {}),
      capabilities: config.capabilities as WebdriverIO.Capabilities,
      logLevel: 'silent',
      connectionRetryTimeout: config.commandTimeoutMs,
      connectionRetryCount: 0,
      waitforTimeout: config.waitforTimeoutMs,
    });
  } catch (error) {
    return { ...result, error: `the Appium session did not start: ${message(error)}` };
  }
  await writeSession({ sessionId: browser.sessionId });
  result.sessionStartMs = performance.now() - started;
  result.sessionCapabilities = (browser.capabilities ?? {}) as Record<string, unknown>;
  try {
    // The first screen: the app answers its page source once it is up.
    await bounded(browser.getPageSource(), config.stepTimeoutMs, 'the first screen');
    result.coldStartMs = performance.now() - started;

    const globals = globalThis as Record<string, unknown>;
    globals.driver = browser;
    globals.browser = browser;
    globals.$ = browser.$.bind(browser);
    globals.$$ = browser.$$.bind(browser);

    // The spec's own commands, as the steps of the `it` running.
    let steps: ChildStep[] | null = null;
    const pending = new Map<string, { title: string; at: number }>();
    let seq = 0;
    browser.on('command', (c: { command: string; body?: unknown }) => {
      if (!steps || QUIET_COMMANDS.has(c.command)) return;
      const body = c.body && typeof c.body === 'object' ? (c.body as Record<string, unknown>) : {};
      const arg = body.text ?? body.value ?? body.url ?? body.script;
      const title = `${c.command}${typeof arg === 'string' ? ` ${JSON.stringify(arg.slice(0, 80))}` : ''}`;
      pending.set(c.command, { title, at: performance.now() });
    });
    browser.on('result', (r: { command: string; result?: unknown }) => {
      const open = pending.get(r.command);
      if (!steps || !open) return;
      pending.delete(r.command);
      if (steps.length >= MAX_STEPS_PER_CASE) return;
      const answer = (r.result ?? {}) as { error?: unknown; value?: { message?: unknown } };
      const error = typeof answer === 'object' && 'error' in answer ? String(answer.value?.message ?? answer.error ?? 'failed') : undefined;
      steps.push({ title: open.title, durationMs: performance.now() - open.at, ...(error ? { error: error.split('\n')[0]!.slice(0, 500) } : {}) });
    });

    const mocha = new Mocha({ timeout: config.stepTimeoutMs, reporter: class Quiet {} as never, color: false });
    for (const file of config.specFiles) mocha.addFile(file);
    const byTest = new Map<Mocha.Test, ChildCase>();
    let current: Mocha.Test | null = null;
    mocha.suite.beforeEach(function () {
      current = this.currentTest ?? null;
      steps = [];
      pending.clear();
    });
    mocha.suite.afterEach(async function () {
      // The hook's own limit: its two bounded calls, whatever the step's.
      this.timeout(2 * EVIDENCE_TIMEOUT_MS + 1000);
      const test = this.currentTest;
      const these = steps ?? [];
      steps = null;
      if (!test) return;
      const n = String(++seq).padStart(3, '0');
      const entry: ChildCase = { name: fullTitle(test), status: test.state === 'failed' ? 'failed' : 'passed', durationMs: test.duration ?? 0, steps: these };
      byTest.set(test, entry);
      // Evidence of the step: its screenshot; at a failure, the page source too. Neither may fail the step.
      try {
        const png = await bounded(browser.takeScreenshot(), EVIDENCE_TIMEOUT_MS, 'the screenshot');
        const rel = path.posix.join(config.relDir, `${n}.png`);
        await writeFile(path.join(config.outDir, `${n}.png`), Buffer.from(png, 'base64'));
        entry.screenshot = rel;
      } catch {
        // None: the session may be gone.
      }
      if (test.state === 'failed') {
        try {
          const source = await bounded(browser.getPageSource(), EVIDENCE_TIMEOUT_MS, 'the page source');
          await writeFile(path.join(config.outDir, `${n}-page-source.xml`), source);
          entry.pageSource = path.posix.join(config.relDir, `${n}-page-source.xml`);
        } catch {
          // None: the session may be gone.
        }
      }
    });

    try {
      await mocha.loadFilesAsync();
    } catch (error) {
      throw new Error(`a spec file would not load: ${loadErrorOf(error)}`);
    }
    const failures = new Map<Mocha.Runnable, Error>();
    // At the test's deadline the specs stop where they are (a hung step included): the session is ended below.
    let deadlineTimer: NodeJS.Timeout | undefined;
    const outOfTime = await Promise.race([
      new Promise<false>((resolve) => {
        const runner = mocha.run(() => resolve(false));
        runner.on('fail', (runnable: Mocha.Runnable, error: Error) => failures.set(runnable, error));
      }),
      new Promise<true>((resolve) => {
        deadlineTimer = setTimeout(() => resolve(true), Math.min(MAX_TIMER_MS, Math.max(0, config.deadline - Date.now())));
      }),
    ]);
    clearTimeout(deadlineTimer);
    const all: Mocha.Test[] = [];
    const walk = (suite: Mocha.Suite) => {
      all.push(...suite.tests);
      suite.suites.forEach(walk);
    };
    walk(mocha.suite);
    for (const test of all) {
      const entry = byTest.get(test) ?? { name: fullTitle(test), status: 'skipped' as const, durationMs: 0, steps: [] };
      const error = failures.get(test);
      if (outOfTime && test === current && !byTest.has(test)) {
        Object.assign(entry, { status: 'failed', timedOut: true, error: "the test's time ran out during this step (testTimeoutSeconds)" });
      } else if (test.state === 'failed') {
        entry.status = 'failed';
        entry.durationMs = test.duration ?? entry.durationMs;
        const timedOut = Boolean(error && /^Timeout of \d+ms exceeded/.test(error.message));
        if (timedOut) entry.timedOut = true;
        entry.error = timedOut ? `the step timed out after ${formatSeconds(config.stepTimeoutMs)} (stepTimeoutSeconds)` : (error?.stack ?? error?.message ?? 'failed').slice(0, 4000);
      } else if (test.state !== 'passed') {
        entry.status = 'skipped';
      }
      result.cases.push(entry);
    }
    // A hook of the spec's that failed (a `before` that did not log in) is a failure of the run.
    const hookErrors = [...failures].filter(([r]) => (r as { type?: string }).type === 'hook').map(([r, e]) => `${r.fullTitle()}: ${e.message}`);
    if (hookErrors.length) result.error = hookErrors.join('\n').slice(0, 4000);
    if (outOfTime) result.timedOut = true;
    else result.performance = await performanceOf(browser, result.sessionCapabilities);
  } catch (error) {
    result.error = message(error);
  } finally {
    try {
      await bounded(browser.deleteSession(), EVIDENCE_TIMEOUT_MS, 'ending the session');
      result.sessionEnded = true;
      await writeSession({ sessionId: browser.sessionId, ended: true });
    } catch {
      // The runner ends it (its kill path).
    }
  }
  return result;
}

const formatSeconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

const result = await main().catch((error: unknown) => ({ error: message(error) }) as ChildResult);
await writeFile(config.resultFile, JSON.stringify(result));
// Whatever a spec left running (a timer, a hung command) does not keep the process.
process.exit(0);
