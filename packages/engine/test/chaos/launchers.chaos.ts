import { cp, mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptProcesses, emptyWarmPool, processTable, runInSandbox } from '../../src/sandbox/index.ts';
import { attemptTag } from '../../src/sandbox/process-table.ts';
import type { RunnerResult, TestDefinition } from '../../src/types.ts';
import type { FixtureServer } from '../fixtures/fixture-server.ts';
import { startHardenedServer } from '../fixtures/hardened-server.ts';
import { startPlantedServer } from '../fixtures/planted-server.ts';
import { localTarget, testOf } from '../helpers.ts';
import { DEFAULT_CHROMIUM_PATH } from '../../src/lib/chromium.ts';

const POLL_MS = 250;

interface Seen {
  /** Chromium processes of the attempt seen at once, at most. */
  chromium: number;
  /** Chromium browser processes (not zygotes, renderers ...) that carry the tag themselves. */
  taggedBrowsers: number;
  /** Node processes besides the runner process (Playwright's runner and workers). */
  nodeChildren: number;
  /** wapiti (a Python process started detached by runChild) carrying the tag. */
  taggedWapiti: number;
  /** Peak memory of the attempt (summed PSS), MB. */
  peakMemoryMb: number;
}

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ');
  } catch {
    return '';
  }
};

/**
 * Runs the test in a runner process (forked for it, or taken from the warm pool with `warmRunners`) and watches
 * the attempt's processes while it runs. A pre-forked process carries the tag it was forked with: it is read from
 * the runner process named by the supervisor's "ready" line.
 */
async function watchRun(test: TestDefinition, baseUrl: string, warmRunners = 0): Promise<{ result: RunnerResult; seen: Seen; tag: string; warm: boolean }> {
  const runDir = await mkdtemp(path.join(tmpdir(), 'fullstop-launchers-'));
  const attemptKey = `launchers-${test.kind}-${process.pid}`;
  let tag = warmRunners ? '' : attemptTag(attemptKey);
  let warm = false;
  let statsTag = '';
  const seen: Seen = { chromium: 0, taggedBrowsers: 0, nodeChildren: 0, taggedWapiti: 0, peakMemoryMb: 0 };
  const log = (message: string) => {
    const pid = Number(/^runner process (\d+) ready/.exec(message)?.[1] ?? 0);
    if (pid && !tag) tag = processTable().find((p) => p.pid === pid)?.tag ?? '';
  };
  const poll = setInterval(() => {
    if (!tag) return;
    const procs = attemptProcesses(processTable(), tag).map((p) => ({ ...p, cmd: cmdline(p.pid) }));
    const chromium = procs.filter((p) => p.cmd.includes('/chromium'));
    seen.chromium = Math.max(seen.chromium, chromium.length);
    seen.taggedBrowsers = Math.max(seen.taggedBrowsers, chromium.filter((p) => !p.cmd.includes('--type=') && p.tag === tag).length);
    seen.taggedWapiti = Math.max(seen.taggedWapiti, procs.filter((p) => p.tag === tag && p.cmd.includes('wapiti')).length);
    seen.nodeChildren = Math.max(seen.nodeChildren, procs.filter((p) => p.tag === tag && p.cmd.startsWith(process.execPath) && !p.cmd.includes('runner-host')).length);
  }, POLL_MS);
  try {
    const result = await runInSandbox(
      {
        test,
        target: localTarget(baseUrl),
        ctx: { runDir, chromiumPath: DEFAULT_CHROMIUM_PATH, workers: 2, signal: new AbortController().signal, log, warmRunners },
        limits: { timeSeconds: 120, memoryMb: 2048 },
        attemptKey,
      },
      (stats) => {
        seen.peakMemoryMb = Math.round(stats.peakMemoryBytes / 1048576);
        warm = stats.warm;
        statsTag = stats.tag;
      },
    );
    expect(statsTag).toBe(tag);
    if (process.env.SANDBOX_TIMINGS) console.log(test.kind, seen);
    return { result, seen, tag, warm };
  } finally {
    clearInterval(poll);
    await rm(runDir, { recursive: true, force: true });
  }
}

/**
 * The real launchers in a runner process: @playwright/test (its runner, its workers and their Chromium),
 * runChild (wapiti) and chrome-launcher (lighthouse). Each Chromium browser process carries the attempt's tag itself (the launchers
 * pass the environment on), its zygotes and renderers are found as its descendants, and nothing is left after.
 */
describe.each([
  { mode: 'forked for the attempt', warmRunners: 0 },
  { mode: 'taken from the warm pool', warmRunners: 1 },
])('browsers launched in a runner process $mode', ({ warmRunners }) => {
  let hardened: FixtureServer;
  let planted: FixtureServer;
  let suiteDir: string;
  beforeAll(async () => {
    hardened = await startHardenedServer();
    planted = await startPlantedServer();
    suiteDir = await mkdtemp(path.join(tmpdir(), 'fullstop-suite-'));
    await cp(path.join(import.meta.dirname, '..', 'fixtures', 'browser-suite'), suiteDir, { recursive: true });
    // A first attempt of the same shape fills the pool: each test's attempt takes the process the one before left.
    if (warmRunners) await watchRun(testOf('api', { requests: [{ path: '/' }] }), hardened.url, warmRunners);
  });
  afterAll(async () => {
    await hardened.close();
    await planted.close();
    await rm(suiteDir, { recursive: true, force: true });
    emptyWarmPool();
  });

  it('tags Playwright’s workers and browsers', { timeout: 120_000 }, async () => {
    const { result, seen, tag, warm } = await watchRun(testOf('browser', { specs: 'home.spec.ts' }, { suiteDir }), hardened.url, warmRunners);
    expect(warm).toBe(warmRunners > 0);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('passed');
    expect(seen.nodeChildren).toBeGreaterThan(0);
    expect(seen.taggedBrowsers).toBeGreaterThan(0);
    expect(seen.chromium).toBeGreaterThan(seen.taggedBrowsers);
    expect(attemptProcesses(processTable(), tag)).toEqual([]);
  });

  it('tags wapiti, which runChild starts detached with the allow-listed environment', { timeout: 120_000 }, async () => {
    const { result, seen, tag, warm } = await watchRun(
      testOf('security-scan', { pages: ['/search?q=shoes'], crawl: false, modules: ['xss'], depth: 0, maxScanSeconds: 60 }),
      planted.url,
      warmRunners,
    );
    expect(warm).toBe(warmRunners > 0);
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'security-scan') throw new Error('wrong summary');
    expect(result.summary.findings.some((f) => f.ruleId === '40012')).toBe(true);
    expect(seen.taggedWapiti).toBeGreaterThan(0);
    expect(attemptProcesses(processTable(), tag)).toEqual([]);
  });

  it('tags the browser chrome-launcher starts for lighthouse', { timeout: 120_000 }, async () => {
    const { result, seen, tag, warm } = await watchRun(testOf('lighthouse', { pages: ['/a11y'] }), planted.url, warmRunners);
    expect(warm).toBe(warmRunners > 0);
    expect(result.error).toBeUndefined();
    expect(seen.taggedBrowsers).toBeGreaterThan(0);
    expect(seen.chromium).toBeGreaterThan(seen.taggedBrowsers);
    expect(attemptProcesses(processTable(), tag)).toEqual([]);
  });
});
