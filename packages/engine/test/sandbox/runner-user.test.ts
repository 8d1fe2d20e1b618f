import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, type Stats, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyWarmPool, resolveRunnerUser, type RunnerUser, RunnerPool, RunnerPoolRefused, runInSandbox, type SandboxStats } from '../../src/sandbox/index.ts';
import { forceContainmentForTests, subreaperPython } from '../../src/sandbox/containment.ts';
import { userProcesses } from '../../src/sandbox/process-table.ts';
import { stageInputs } from '../../src/sandbox/runner-inputs.ts';
import { chromiumSandboxSupport, giveRunFolder, takeBackTree } from '../../src/sandbox/runner-user.ts';
import { sleepers, uniqueSleep, until } from './fixtures/processes.ts';
import { startHardenedServer } from '../fixtures/hardened-server.ts';
import { serverForSuite, suiteCopyForSuite } from '../fixtures/suite-server.ts';
import { RUNNER_NICENESS } from '../../src/sandbox/supervisor.ts';
import { DEFAULT_CHROMIUM_PATH } from '../../src/lib/chromium.ts';

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

function attempt(behaviour: string, runAs: RunnerUser | RunnerPool | null, warmRunners = 0, options: Record<string, unknown> = {}) {
  const runDir = path.join(dataDir, 'runs', `attempt-${++counter}`);
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  let stats: SandboxStats | undefined;
  const logs: string[] = [];
  const promise = runInSandbox(
    {
      test: { name: behaviour, group: 'G', kind: 'api', options: { behaviour, serverPid: process.pid, keyFile, ...options } },
      target: { baseUrl: 'https://example.test', allowedOrigins: [], allowPrivateAddresses: false },
      ctx: { runDir, chromiumPath: DEFAULT_CHROMIUM_PATH, workers: 1, signal: new AbortController().signal, log: (m) => logs.push(m), runAs, ...(warmRunners ? { warmRunners } : {}) },
      limits: { timeSeconds: 60, memoryMb: behaviour === 'buffers' ? 200 : 512 },
      attemptKey: `runner-user-${process.pid}-${counter}`,
      runnersModule: HOSTILE,
    },
    (s) => (stats = s),
  );
  return { promise, runDir, logs, stats: () => stats! };
}

/** Every entry under `dir` (itself included) with its lstat. */
function walk(dir: string): { path: string; stat: Stats }[] {
  const stat = lstatSync(dir);
  return [{ path: dir, stat }, ...(stat.isDirectory() ? readdirSync(dir).flatMap((e) => walk(path.join(dir, e))) : [])];
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
      // What it wrote in its folder was its own; after the attempt it is the server's again, closed (issue 37).
      expect(statSync(path.join(a.runDir, 'spy.json'))).toMatchObject({ uid: 0, gid: 0 });
      expect(statSync(path.join(a.runDir, 'spy.json')).mode & 0o077).toBe(0);
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
    // Three attempts of fresh runner processes, one after the other: minutes on two loaded cores, never a verdict.
  }, 180_000);

  it('lets the runner user’s Chromium run with its own sandbox where the kernel allows it', async () => {
    const support = chromiumSandboxSupport(user);
    const a = attempt('chromium', user);
    await a.promise;
    const seen = JSON.parse(readFileSync(path.join(a.runDir, 'chromium.json'), 'utf8')) as { text: string; sandbox: boolean; noSandboxFlag: boolean; processes: number };
    expect(seen.text).toBe('sandboxed');
    expect(seen.processes).toBeGreaterThan(0);
    expect({ sandbox: seen.sandbox, noSandboxFlag: seen.noSandboxFlag }).toEqual({ sandbox: support.ok, noSandboxFlag: !support.ok });
  }, 60_000);

  // A whole browser attempt as the runner user: 16-20 s alone, 30-120 s beside the rest of the suite on 2 cores. Its
  // limits leave room for the loaded case: they bound a hang, not the speed.
  describe('a real browser test', () => {
    const server = serverForSuite(startHardenedServer);
    const suite = suiteCopyForSuite('browser-suite');

    it('runs as the runner user on a copy of its suite (the stored one stays closed to it)', async () => {
      expect(statSync(suite.dir).mode & 0o077).toBe(0);
      // A file of this test's own in the suite: its copy is found among other files' copies (they run at once in CI).
      const marker = `marker-${process.pid}-${Date.now()}.txt`;
      writeFileSync(path.join(suite.dir, marker), 'this test’s suite');
      const runDir = path.join(dataDir, 'runs', `browser-${++counter}`);
      mkdirSync(runDir, { mode: 0o700 });
      const logs: string[] = [];
      const result = await runInSandbox({
        test: { name: 'browser', group: 'G', kind: 'browser', options: {}, suiteDir: suite.dir },
        target: { baseUrl: server.url, allowedOrigins: [], allowPrivateAddresses: true },
        ctx: { runDir, chromiumPath: DEFAULT_CHROMIUM_PATH, workers: 1, signal: new AbortController().signal, log: (m) => logs.push(m), runAs: user },
        limits: { timeSeconds: 240, memoryMb: 2048 },
        attemptKey: `runner-user-browser-${process.pid}`,
      });
      expect(result.error, logs.join('\n')).toBeUndefined();
      // The suite ran whole: its cases pass or fail on the page's content (browser.test.ts holds those), none for want of access.
      expect(result.totals.totalTests).toBe(4);
      if (result.summary.kind !== 'browser') throw new Error('wrong summary');
      expect(result.summary.cases.find((c) => c.name === 'home.spec.ts › home shows its heading')?.status).toBe('passed');
      // The screenshot was the runner's; the attempt over, the server's alone (issue 37).
      const screenshot = result.artifacts.find((a) => a.kind === 'screenshot')!;
      expect(statSync(path.join(runDir, screenshot.path))).toMatchObject({ uid: 0, gid: 0 });
      expect(statSync(path.join(runDir, screenshot.path)).mode & 0o077).toBe(0);
      // The copy of the suite is gone with the attempt.
      const copies = readdirSync(os.tmpdir()).filter((f) => f.startsWith('fullstop-inputs-'));
      expect(copies.filter((f) => existsSync(path.join(os.tmpdir(), f, 'suite', marker)))).toEqual([]);
    }, 240_000);

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
          ctx: { runDir, chromiumPath: DEFAULT_CHROMIUM_PATH, workers: 1, signal: new AbortController().signal, log: (m) => logs.push(m), runAs: user },
          limits: { timeSeconds: 240, memoryMb: 2048 },
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
    }, 240_000);
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

  it('copies a browser test’s fingerprints for the runner as a file it owns; a link in their place is not followed, and none stored is none given', async () => {
    const runDir = mkdtempSync(path.join(dataDir, 'runs', 'healing-'));
    const fingerprints = path.join(dataDir, `fingerprints-${process.pid}.json`);
    writeFileSync(fingerprints, '{"sites":[]}');
    chmodSync(fingerprints, 0o600);
    const test = { name: 't', group: 'G', kind: 'browser' as const, options: {} };
    const target = { baseUrl: 'https://example.test', allowedOrigins: [], allowPrivateAddresses: false };
    const staged = await stageInputs(test, target, runDir, user, undefined, fingerprints);
    try {
      expect(staged.healingFingerprints).toBeDefined();
      expect(staged.healingFingerprints).not.toBe(fingerprints);
      expect(statSync(staged.healingFingerprints!).uid).toBe(user.uid);
      expect(readFileSync(staged.healingFingerprints!, 'utf8')).toBe('{"sites":[]}');
    } finally {
      await staged.remove();
    }
    // A link to the server's key where the file was: copied as a link, which the runner user cannot follow to read it.
    const linked = path.join(dataDir, `fingerprints-link-${process.pid}.json`);
    symlinkSync(keyFile, linked);
    const viaLink = await stageInputs(test, target, runDir, user, undefined, linked);
    try {
      expect(lstatSync(viaLink.healingFingerprints!).isSymbolicLink()).toBe(true);
    } finally {
      await viaLink.remove();
    }
    // Nothing stored yet: nothing heals, and nothing was staged for it.
    const none = await stageInputs(test, target, runDir, user, undefined, path.join(dataDir, 'no-such-fingerprints.json'));
    expect(none.healingFingerprints).toBeUndefined();
    await none.remove();
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

  it('takes a folder back without following or changing what its links point to', () => {
    const parent = mkdtempSync(path.join(dataDir, 'back-'));
    const runDir = path.join(parent, 'run');
    mkdirSync(path.join(runDir, 'sub'), { recursive: true });
    writeFileSync(path.join(runDir, 'sub', 'f'), 'x');
    symlinkSync(keyFile, path.join(runDir, 'sub', 'key'));
    giveRunFolder(runDir, user);
    chmodSync(path.join(runDir, 'sub'), 0o777);
    takeBackTree(runDir);
    for (const e of walk(runDir)) {
      expect({ path: e.path, uid: e.stat.uid, gid: e.stat.gid }).toEqual({ path: e.path, uid: 0, gid: 0 });
      if (!e.stat.isSymbolicLink()) expect({ path: e.path, open: e.stat.mode & 0o7077 }).toEqual({ path: e.path, open: 0 });
    }
    expect(statSync(keyFile).mode & 0o7777).toBe(0o600);
  });

  it('refuses a user that does not exist, or root, naming the setting', () => {
    expect(() => resolveRunnerUser('no-such-user-fullstop')).toThrow(/ENGINE_RUNNER_USER: there is no user "no-such-user-fullstop"/);
    expect(() => resolveRunnerUser('root')).toThrow(/ENGINE_RUNNER_USER: "root" is root/);
  });
});

/**
 * A pool of runner users (issue 37): each running attempt leases a user of its own, so attempts running at once
 * cannot read each other's /proc, environment or folders; it gets it back only once the attempt ended whole and its
 * folder is the server's again. Root only, like the rest of this file; the users are made here when missing
 * (useradd), as a root server without ENGINE_RUNNER_USER makes them.
 */
describe.skipIf(!isRoot)('a pool of runner users (root only)', () => {
  let pool: RunnerPool;
  beforeAll(async () => {
    pool = new RunnerPool({ automatic: true }, 3);
    await pool.claim();
  }, 60_000);
  afterAll(() => {
    emptyWarmPool();
    forceContainmentForTests({});
    pool?.close();
  });

  it('claims users of its own, made when missing, that another pool on the machine never gets', async () => {
    const state = pool.state();
    expect(state).toMatchObject({ size: 3, refused: null, short: null });
    expect(state.names).toHaveLength(3);
    for (const name of state.names) expect(name).toMatch(/^fullstop-runner-\d+$/);
    // Another pool (in another process: the lock is the machine's) claims other users.
    const other = new RunnerPool({ automatic: true }, 2);
    await other.claim();
    try {
      expect(other.state().names).toHaveLength(2);
      expect(other.state().names.filter((n) => state.names.includes(n))).toEqual([]);
    } finally {
      other.close();
    }
    const uids = state.names.map((n) => resolveRunnerUser(n).uid);
    expect(new Set(uids).size).toBe(3);
  }, 60_000);

  it('gives each of two attempts running at once a user of its own: neither reads the other’s /proc or folder', async () => {
    const holder = attempt('hold', pool);
    await until('the first attempt to run', () => existsSync(path.join(holder.runDir, 'who.json')), 30_000);
    const who = JSON.parse(readFileSync(path.join(holder.runDir, 'who.json'), 'utf8')) as { pid: number; uid: number };
    const peeker = attempt('peek', pool, 0, { peerPid: who.pid, peerDir: holder.runDir });
    await peeker.promise;
    writeFileSync(path.join(holder.runDir, 'go'), '');
    await holder.promise;
    const peek = JSON.parse(readFileSync(path.join(peeker.runDir, 'peek.json'), 'utf8')) as Record<string, unknown> & { uid: number };
    expect(holder.stats().user).not.toBe(peeker.stats().user);
    expect(peek.uid).not.toBe(who.uid);
    expect(pool.state().names).toContain(holder.stats().user);
    expect(peek).toMatchObject({ environ: { error: 'EACCES' }, maps: { error: 'EACCES' }, folder: { error: 'EACCES' }, file: { error: 'EACCES' }, signal: { error: 'EPERM' } });
    // Both users are back, with no process left.
    await until('the users to be back', () => pool.freeCount === 3, 5_000);
    for (const name of pool.state().names) expect(userProcesses(resolveRunnerUser(name).uid)).toEqual([]);
  }, 90_000);

  it('hands a user to its next attempt with nothing of the last one in the shared temporary folders', async () => {
    const a = attempt('stash', pool);
    await a.promise;
    const stash = JSON.parse(readFileSync(path.join(a.runDir, 'stash.json'), 'utf8')) as { tmpdir: string; owner: number; mode: number; files: string[] };
    const uid = resolveRunnerUser(a.stats().user!).uid;
    // Its tools' temporary files went to a folder of its own, which no other user may list.
    expect(stash.tmpdir).not.toBe('/tmp');
    expect(stash).toMatchObject({ owner: uid, mode: 0o700 });
    await until('the user to be back', () => pool.freeCount === 3, 5_000);
    for (const file of [stash.tmpdir, ...stash.files]) expect(existsSync(file), file).toBe(false);
    for (const dir of ['/tmp', '/var/tmp', '/dev/shm']) expect(readdirSync(dir).filter((name) => lstatSync(path.join(dir, name)).uid === uid), dir).toEqual([]);
  }, 60_000);

  it('leases from the pool at the fork of a pre-forked runner, which the next attempt takes with its user', async () => {
    const first = attempt('spy', pool, 1);
    await first.promise;
    const second = attempt('spy', pool, 1);
    await second.promise;
    expect(second.stats().warm).toBe(true);
    const spy = spyOf(second.runDir);
    expect(spy.uid).toBe(resolveRunnerUser(second.stats().user!).uid);
    expect(pool.state().names).toContain(second.stats().user);
    expect(spy).toMatchObject({ environ: { error: 'EACCES' }, key: { error: 'EACCES' } });
    // The pool holds one waiting runner, with its user; emptied, every user is back.
    expect(pool.freeCount).toBe(2);
    emptyWarmPool();
    await until('the waiting runner’s user to be back', () => pool.freeCount === 3, 10_000);
  }, 90_000);

  it('closes the attempt’s folder after it: the server’s again, nothing for group or others, links untouched', async () => {
    const outsideDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-outside-'));
    chmodSync(outsideDir, 0o755);
    try {
      const a = attempt('litter', pool, 0, { outsideDir });
      await a.promise;
      const litter = JSON.parse(readFileSync(path.join(a.runDir, 'litter.json'), 'utf8')) as { hardlink: { error?: string } };
      const entries = walk(a.runDir);
      expect(entries.map((e) => path.relative(a.runDir, e.path)).sort()).toEqual(
        ['', 'key', 'litter.json', 'open.txt', 'outside', 'setuid', 'shots', 'shots/deep', 'shots/deep/a.png', ...(litter.hardlink.error ? [] : ['key-hardlink'])].sort(),
      );
      for (const e of entries) {
        expect({ path: e.path, uid: e.stat.uid, gid: e.stat.gid }).toEqual({ path: e.path, uid: 0, gid: 0 });
        // No bit for group or others, no set-id bit; a link's own mode means nothing and is never changed.
        if (!e.stat.isSymbolicLink()) expect({ path: e.path, open: e.stat.mode & 0o7077 }).toEqual({ path: e.path, open: 0 });
      }
      expect(lstatSync(path.join(a.runDir, 'key')).isSymbolicLink()).toBe(true);
      // What the links point to is as it was.
      expect(statSync(keyFile)).toMatchObject({ uid: 0, gid: 0 });
      expect(statSync(keyFile).mode & 0o7777).toBe(0o600);
      expect(statSync(outsideDir).mode & 0o7777).toBe(0o755);
      // The kernel refuses a link to a file the runner cannot read (protected_hardlinks); were it allowed, the
      // file keeps its modes: takeBackTree leaves a file with other links alone.
      expect(litter.hardlink.error).toBe('EPERM');
    } finally {
      rmSync(outsideDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('kills every process of the attempt’s user at its end, even without cgroups or a subreaper', async () => {
    emptyWarmPool();
    forceContainmentForTests({ cgroup: false, subreaper: false });
    try {
      const arg = uniqueSleep();
      const a = attempt('escape', pool, 0, { sleep: arg });
      await a.promise;
      const escaped = JSON.parse(readFileSync(path.join(a.runDir, 'escaped.json'), 'utf8')) as { pid: number; ppid: number; runner: number };
      expect(escaped.ppid).not.toBe(escaped.runner);
      expect(sleepers(arg)).toEqual([]);
      expect(a.logs).toContain(`killed 1 process(es) of ${a.stats().user} the attempt left behind`);
    } finally {
      forceContainmentForTests({});
    }
  }, 60_000);

  it.skipIf(!subreaperPython())('starts the runner as a subreaper as its user where there is no cgroup', async () => {
    emptyWarmPool();
    forceContainmentForTests({ cgroup: false });
    try {
      const arg = uniqueSleep();
      const a = attempt('escape', pool, 0, { sleep: arg });
      await a.promise;
      const escaped = JSON.parse(readFileSync(path.join(a.runDir, 'escaped.json'), 'utf8')) as { pid: number; ppid: number; runner: number };
      // Reparented to the runner (the python wrapper ran as the runner user, prctl needs nothing), and gone with it.
      expect(escaped.ppid).toBe(escaped.runner);
      expect(sleepers(arg)).toEqual([]);
    } finally {
      forceContainmentForTests({});
    }
  }, 60_000);

  it('refuses attempts, saying how to fix it, when it cannot make its users', async () => {
    // useradd refuses the name: as where useradd is missing or /etc is read-only.
    const broken = new RunnerPool({ automatic: true, prefix: 'Not A Name ' }, 2);
    const a = attempt('pass', broken);
    await expect(a.promise).rejects.toBeInstanceOf(RunnerPoolRefused);
    await expect(a.promise).rejects.toMatchObject({
      code: 'engine_missing',
      message: expect.stringMatching(/^tests cannot run here: this server runs as root and could not create its runner users \(useradd Not A Name 1: .+\); set ENGINE_RUNNER_USER to an existing unprivileged user/),
    });
    expect(broken.state()).toMatchObject({ names: [], refused: expect.stringContaining('or run the server as a non-root user') });
    broken.close();
  });
});
