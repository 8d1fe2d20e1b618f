import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyWarmPool, resolveRunnerUser, type RunnerUser, runInSandbox, type SandboxStats } from '../../src/sandbox/index.ts';
import { stageInputs } from '../../src/sandbox/runner-inputs.ts';
import { chromiumSandboxSupport, giveRunFolder } from '../../src/sandbox/runner-user.ts';
import { startHardenedServer } from '../fixtures/hardened-server.ts';
import { serverForSuite, suiteCopyForSuite } from '../fixtures/suite-server.ts';
import { RUNNER_NICENESS } from '../../src/sandbox/supervisor.ts';

/**
 * Runners as another user (docs/decisions/0077): a runner taken over cannot read the server's /proc nor its key
 * file. Switching users needs root, as the server runs in the shipped deployments and in CI: elsewhere these tests
 * are skipped, since the user cannot be created nor switched to.
 */
const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-runners.ts', import.meta.url));
const RUNNER = 'fullstop-runner';
const isRoot = process.geteuid?.() === 0;
const SERVER_SECRET = `sk-${process.pid}-must-stay-in-the-server`;

let user: RunnerUser;
let dataDir: string;
let keyFile: string;
let counter = 0;

beforeAll(() => {
  if (!isRoot) return;
  // The deploy files create this user (deploy/Dockerfile, docs/deployment.md); a test machine may not have it yet.
  try {
    execFileSync('id', ['-u', RUNNER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', RUNNER]);
  }
  user = resolveRunnerUser(RUNNER);
  // A DATA_DIR as the server makes it: 0700, its key 0600, run folders below (lib/data-dir.ts, lib/server-keys.ts).
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-data-'));
  chmodSync(dataDir, 0o700);
  keyFile = path.join(dataDir, 'server-key');
  writeFileSync(keyFile, 'k'.repeat(64), { mode: 0o600 });
  mkdirSync(path.join(dataDir, 'runs'), { mode: 0o700 });
  process.env.SERVER_KEY = SERVER_SECRET;
});

afterAll(() => {
  emptyWarmPool();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (process.env.SERVER_KEY === SERVER_SECRET) delete process.env.SERVER_KEY;
});

function attempt(behaviour: string, runAs: RunnerUser | null, warmRunners = 0) {
  const runDir = path.join(dataDir, 'runs', `attempt-${++counter}`);
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  let stats: SandboxStats | undefined;
  const promise = runInSandbox(
    {
      test: { name: behaviour, group: 'G', kind: 'api', options: { behaviour, serverPid: process.pid, keyFile } },
      target: { baseUrl: 'https://example.test', allowedOrigins: [], allowPrivateAddresses: false },
      ctx: { runDir, chromiumPath: '/usr/bin/chromium', workers: 1, signal: new AbortController().signal, log: () => {}, runAs, ...(warmRunners ? { warmRunners } : {}) },
      limits: { timeSeconds: 60, memoryMb: behaviour === 'buffers' ? 200 : 512 },
      attemptKey: `runner-user-${process.pid}-${counter}`,
      runnersModule: HOSTILE,
    },
    (s) => (stats = s),
  );
  return { promise, runDir, stats: () => stats! };
}

interface Spy {
  uid: number;
  gid: number;
  groups: number[];
  home: string;
  user: string;
  nice: number;
  chromiumSandbox: string | null;
  capabilities: string;
  environ: { read?: boolean; error?: string };
  maps: { read?: boolean; error?: string };
  key: { read?: boolean; error?: string };
}

const spyOf = (runDir: string) => JSON.parse(readFileSync(path.join(runDir, 'spy.json'), 'utf8')) as Spy;

describe.skipIf(!isRoot)('runner processes as another user (root only: switching users needs it)', () => {
  it('as the server’s own user (no runner user), a runner reads the server’s environment and key: what this guards against', async () => {
    const a = attempt('spy', null);
    await a.promise;
    const spy = spyOf(a.runDir);
    expect(spy.uid).toBe(0);
    expect(spy.environ).toEqual({ read: true });
    expect(spy.key).toEqual({ read: true });
  });

  it.each([
    { mode: 'a fresh runner process', warmRunners: 0 },
    { mode: 'a pre-forked runner process', warmRunners: 1 },
  ])('as the runner user ($mode), it cannot read /proc/<server>/environ, the server’s memory map nor DATA_DIR/server-key', async ({ warmRunners }) => {
    // With a pool, the first attempt fills it and the second takes a process forked as the runner user.
    for (let i = 0; i < (warmRunners ? 2 : 1); i++) {
      const a = attempt('spy', user, warmRunners);
      await a.promise;
      const spy = spyOf(a.runDir);
      expect(a.stats().warm).toBe(warmRunners > 0 && i > 0);
      expect({ uid: spy.uid, gid: spy.gid, groups: spy.groups }).toEqual({ uid: user.uid, gid: user.gid, groups: [user.gid] });
      expect({ home: spy.home, user: spy.user }).toEqual({ home: user.home, user: RUNNER });
      // No capability survives the switch from root.
      expect(BigInt(`0x${spy.capabilities}`)).toBe(0n);
      expect(spy.environ).toEqual({ error: 'EACCES' });
      expect(spy.maps).toEqual({ error: 'EACCES' });
      expect(spy.key).toEqual({ error: 'EACCES' });
      expect(spy.nice).toBe(RUNNER_NICENESS);
      // What it wrote in its folder is its own; the server (root) still reads it.
      expect(statSync(path.join(a.runDir, 'spy.json')).uid).toBe(user.uid);
      // DATA_DIR gained the search bit only: the runner reaches its folder by name, lists nothing.
      expect(statSync(dataDir).mode & 0o777).toBe(0o701);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    }
  });

  it('still holds the memory limit, kills a detached grandchild and passes only the allow-listed environment', async () => {
    // The server (root) reads the runner user's /proc to measure and sweep it, and may kill its processes.
    const big = attempt('buffers', user);
    big.promise.catch(() => {});
    await expect(big.promise).rejects.toMatchObject({ code: 'out_of_memory' });
    const detached = attempt('detached-grandchild', user);
    await detached.promise;
    const pid = Number(readFileSync(path.join(detached.runDir, 'grandchild.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(existsSync(`/proc/${pid}`) && !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'))).toBe(false);
    const env = attempt('env', user);
    await env.promise;
    const runnerEnv = readFileSync(path.join(env.runDir, 'runner-env.json'), 'utf8');
    expect(runnerEnv).not.toContain(SERVER_SECRET);
  }, 60_000);

  it('lets the runner user’s Chromium run with its own sandbox where the kernel allows it', async () => {
    const support = chromiumSandboxSupport(user);
    const a = attempt('chromium', user);
    await a.promise;
    const seen = JSON.parse(readFileSync(path.join(a.runDir, 'chromium.json'), 'utf8')) as { text: string; sandbox: boolean; noSandboxFlag: boolean; processes: number };
    expect(seen.text).toBe('sandboxed');
    expect(seen.processes).toBeGreaterThan(0);
    expect({ sandbox: seen.sandbox, noSandboxFlag: seen.noSandboxFlag }).toEqual({ sandbox: support.ok, noSandboxFlag: !support.ok });
  }, 60_000);

  describe('a real browser test', () => {
    const server = serverForSuite(startHardenedServer);
    const suite = suiteCopyForSuite('browser-suite');

    it('runs as the runner user on a copy of its suite (the stored one stays closed to it)', async () => {
      expect(statSync(suite.dir).mode & 0o077).toBe(0);
      const runDir = path.join(dataDir, 'runs', `browser-${++counter}`);
      mkdirSync(runDir, { mode: 0o700 });
      const logs: string[] = [];
      const result = await runInSandbox({
        test: { name: 'browser', group: 'G', kind: 'browser', options: {}, suiteDir: suite.dir },
        target: { baseUrl: server.url, allowedOrigins: [], allowPrivateAddresses: true },
        ctx: { runDir, chromiumPath: '/usr/bin/chromium', workers: 1, signal: new AbortController().signal, log: (m) => logs.push(m), runAs: user },
        limits: { timeSeconds: 120, memoryMb: 2048 },
        attemptKey: `runner-user-browser-${process.pid}`,
      });
      expect(result.error, logs.join('\n')).toBeUndefined();
      // The suite ran whole: its cases pass or fail on the page's content (browser.test.ts holds those), none for want of access.
      expect(result.totals.totalTests).toBe(4);
      if (result.summary.kind !== 'browser') throw new Error('wrong summary');
      expect(result.summary.cases.find((c) => c.name === 'home.spec.ts › home shows its heading')?.status).toBe('passed');
      const screenshot = result.artifacts.find((a) => a.kind === 'screenshot')!;
      expect(statSync(path.join(runDir, screenshot.path)).uid).toBe(user.uid);
      // The copy of the suite is gone with the attempt.
      expect(readdirSync(os.tmpdir()).filter((f) => f.startsWith('fullstop-inputs-'))).toEqual([]);
    }, 120_000);

    it("drives Debian's Firefox as the runner user, whose home it may not write, through the policy proxy", async () => {
      const other = await startHardenedServer();
      // The runner's environment is allow-listed: the other origin is written into the spec.
      const suiteDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-firefox-suite-'));
      writeFileSync(
        path.join(suiteDir, 'firefox.spec.ts'),
        [
          "import { expect, test } from '@playwright/test';",
          "test('runs in Firefox and reaches only the target', async ({ page, browserName }) => {",
          "  expect(browserName).toBe('_bidiFirefox');",
          "  await page.goto('/');",
          "  await expect(page.locator('h1')).toHaveText('Hardened');",
          '  expect(await page.evaluate(() => navigator.userAgent)).toMatch(/Firefox\\/\\d+/);',
          `  const refused = await page.goto(${JSON.stringify(other.url)});`,
          '  expect(refused?.status()).toBe(403);',
          '});',
        ].join('\n'),
      );
      try {
        const runDir = path.join(dataDir, 'runs', `browser-${++counter}`);
        mkdirSync(runDir, { mode: 0o700 });
        const logs: string[] = [];
        const result = await runInSandbox({
          test: { name: 'firefox', group: 'G', kind: 'browser', options: { engines: ['firefox'] }, suiteDir },
          target: { baseUrl: server.url, allowedOrigins: [], allowPrivateAddresses: true },
          ctx: { runDir, chromiumPath: '/usr/bin/chromium', workers: 1, signal: new AbortController().signal, log: (m) => logs.push(m), runAs: user },
          limits: { timeSeconds: 120, memoryMb: 2048 },
          attemptKey: `runner-user-firefox-${process.pid}`,
        });
        expect(result.error, logs.join('\n')).toBeUndefined();
        if (result.summary.kind !== 'browser') throw new Error('wrong summary');
        expect(result.summary.cases.map((c) => [c.name, c.status, c.error])).toEqual([['firefox.spec.ts › runs in Firefox and reaches only the target [firefox/desktop]', 'passed', undefined]]);
        // The policy proxy answered for the other origin: Firefox never reached it.
        expect(other.requests).toBe(0);
        // Its HOME was the run's own (without it Firefox hangs at start as a user with no home), removed after.
        expect(existsSync(path.join(runDir, 'browser/home'))).toBe(false);
      } finally {
        await other.close();
        rmSync(suiteDir, { recursive: true, force: true });
      }
    }, 120_000);
  });

  it('copies the suite for the runner without following its links: a link to the key stays unreadable', async () => {
    const suiteDir = mkdtempSync(path.join(dataDir, 'suite-'));
    writeFileSync(path.join(suiteDir, 'a.spec.ts'), 'test');
    symlinkSync(keyFile, path.join(suiteDir, 'key'));
    const runDir = mkdtempSync(path.join(dataDir, 'runs', 'staged-'));
    const staged = await stageInputs({ name: 't', group: 'G', kind: 'browser', options: {}, suiteDir }, { baseUrl: 'https://example.test', allowedOrigins: [], allowPrivateAddresses: false }, runDir, user);
    try {
      const copy = staged.test.suiteDir!;
      expect(copy).not.toBe(suiteDir);
      expect(statSync(path.join(copy, 'a.spec.ts')).uid).toBe(user.uid);
      expect(lstatSync(path.join(copy, 'key')).isSymbolicLink()).toBe(true);
      expect(statSync(keyFile)).toMatchObject({ uid: 0, mode: expect.any(Number) });
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    } finally {
      await staged.remove();
    }
    expect(existsSync(staged.test.suiteDir!)).toBe(false);
  });

  it('never sandboxes Chromium for a root runner, and says why', () => {
    expect(chromiumSandboxSupport(null)).toEqual({ ok: false, reason: expect.stringMatching(/root/) });
  });

  it('gives the run folder to the runner user and makes its parents searchable, never listable', () => {
    const parent = mkdtempSync(path.join(dataDir, 'give-'));
    chmodSync(parent, 0o700);
    const runDir = path.join(parent, 'run');
    mkdirSync(path.join(runDir, 'inputs'), { recursive: true });
    writeFileSync(path.join(runDir, 'inputs', 'build.zip'), 'zip');
    giveRunFolder(runDir, user);
    for (const p of [runDir, path.join(runDir, 'inputs'), path.join(runDir, 'inputs', 'build.zip')]) expect(statSync(p).uid).toBe(user.uid);
    expect(statSync(parent).mode & 0o777).toBe(0o701);
  });

  it('refuses a user that does not exist, or root, naming the setting', () => {
    expect(() => resolveRunnerUser('no-such-user-fullstop')).toThrow(/ENGINE_RUNNER_USER: there is no user "no-such-user-fullstop"/);
    expect(() => resolveRunnerUser('root')).toThrow(/ENGINE_RUNNER_USER: "root" is root/);
  });
});
