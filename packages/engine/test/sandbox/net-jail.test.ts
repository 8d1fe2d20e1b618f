import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { RunAbortedError } from '../../src/errors.ts';
import { runChild } from '../../src/lib/child-process.ts';
import { launchGuardedBrowser } from '../../src/lib/guarded-browser.ts';
import { startPolicyProxy } from '../../src/policy/policy-proxy.ts';
import { createTargetGuard } from '../../src/policy/target-guard.ts';
import { netJailSupport as exported } from '../../src/sandbox/index.ts';
import { jailedCommand, netJailSupport, setNetJailOffForTests, startSocketForward, sweepStaleSocketDirs } from '../../src/sandbox/net-jail.ts';
import { type FixtureServer, type Handler, html, startFixtureServer } from '../fixtures/fixture-server.ts';
import { localTarget, makeContext } from '../helpers.ts';
import { runReportingSpec, writeSuite } from '../fixtures/reporting-spec.ts';

/**
 * Issue 37: a client's code reaches only the policy proxy. Each test attempt's Playwright specs (and wapiti, a mobile
 * UI test's specs, the Chromium our runners drive) run in a network namespace of their own whose only way out is the
 * proxy's Unix socket (src/sandbox/net-jail.ts). Where the kernel refuses the namespace (a container's seccomp
 * profile), runners run unjailed and these tests say so and are skipped.
 */
const support = netJailSupport(null);
const jail = describe.skipIf(!support.ok);

const notFound: Handler = (_req, res) => void res.writeHead(404).end();

/** Pids of the processes whose command line holds `marker` (this test's own processes only). */
async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker)) found.push(Number(entry));
  }
  return found;
}

/** Whether something answers a TCP connection at 127.0.0.1:`port` from this process (the runner's network). */
const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(2_000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

describe('net jail support', () => {
  it('says whether this machine can jail, with the reason when it cannot, under the name the server calls', () => {
    expect(exported).toBe(netJailSupport);
    expect(netJailSupport(null)).toBe(support);
    if (!support.ok) expect(support.reason).toMatch(/\w/);
  });
});

jail('net jail', () => {
  afterEach(() => setNetJailOffForTests(false));

  it('runs a command with loopback only, no capability, stdio and extra descriptors passed through', async () => {
    const wrapped = jailedCommand('/bin/sh', ['-c', 'sed -n "3,\\$s/:.*//p" /proc/net/dev | tr -d " "; ls -A /run | wc -l; grep CapEff /proc/self/status; echo "to fd 3" >&3; read line; echo "read $line"; exit 7'], { forwards: [] });
    const child = spawn(wrapped.command, wrapped.args, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    const chunks = { out: '', fd3: '' };
    child.stdout!.on('data', (b: Buffer) => (chunks.out += b.toString()));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (b: Buffer) => (chunks.fd3 += b.toString()));
    child.stdin!.end('hello\n');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(7);
    // No capability, not even in its own namespace; root keeps CAP_SETFCAP there (bit 31) for a browser's sandbox.
    const capabilities = process.geteuid!() === 0 ? '0000000080000000' : '0000000000000000';
    // Only loopback; /run (the host's daemons' sockets) empty; no capability.
    expect(chunks.out.split('\n')).toEqual(['lo', '0', `CapEff:\t${capabilities}`, 'read hello', '']);
    expect(chunks.fd3).toBe('to fd 3\n');
  });

  it('leaves nothing behind: a detached grandchild ends with the jailed command (and outlives it unjailed)', async () => {
    const marker = `300.${process.pid}${Date.now() % 100000}`;
    const dir = await mkdtemp(path.join(tmpdir(), 'fullstop-jail-orphan-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    // A process of its own session, which the process-group kill of runChild does not reach; the command ends once
    // it runs (it has written its file).
    const script = (n: number) => `setsid sh -c 'touch ${dir}/${n}; exec sleep ${marker}' >/dev/null 2>&1 </dev/null & while [ ! -e ${dir}/${n} ]; do sleep 0.01; done; echo started`;
    const ctx = { cwd: dir, signal: new AbortController().signal, timeoutMs: 60_000 };
    const jailed = await runChild('/bin/sh', ['-c', script(1)], { ...ctx, jail: { forwards: [] } });
    expect(jailed.stdout).toBe('started\n');
    expect(await processesWith(marker)).toEqual([]);

    // The same unjailed: the grandchild is still there (so the check above can fail); killed here.
    const free = await runChild('/bin/sh', ['-c', script(2)], ctx);
    expect(free.stdout).toBe('started\n');
    const left = await processesWith(marker);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toHaveLength(1);
  });

  it("gives the jailed command runChild's SIGTERM when the run is aborted, as unjailed", async () => {
    const controller = new AbortController();
    let output = '';
    const running = runChild('/bin/sh', ['-c', 'trap "echo got TERM; exit 0" TERM; echo ready; while :; do sleep 0.1; done'], {
      cwd: tmpdir(),
      signal: controller.signal,
      timeoutMs: 60_000,
      onOutput: (chunk) => {
        output += chunk;
        if (chunk.includes('ready')) controller.abort();
      },
      jail: { forwards: [] },
    });
    await expect(running).rejects.toBeInstanceOf(RunAbortedError);
    expect(output).toContain('got TERM');
  });

  it('serves the policy proxy on a Unix socket in a private folder, with the same policy, removed on close', async () => {
    const site = await startFixtureServer({ '/': (_req, res) => void res.end('allowed') }, notFound);
    const other = await startFixtureServer({ '/': (_req, res) => void res.end('other') }, notFound);
    const proxy = await startPolicyProxy(createTargetGuard(localTarget(site.url)));
    try {
      const dir = path.dirname(proxy.socketPath);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect((await stat(dir)).uid).toBe(process.geteuid!());
      const get = (url: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request({ socketPath: proxy.socketPath, path: url, headers: { host: new URL(url).host } }, (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          req.end();
        });
      expect(await get(`${site.url}/`)).toEqual({ status: 200, body: 'allowed' });
      expect((await get(`${other.url}/`)).status).toBe(403);
      expect(other.requests).toBe(0);
    } finally {
      await proxy.close();
      await site.close();
      await other.close();
    }
    await expect(stat(path.dirname(proxy.socketPath))).rejects.toThrow(/ENOENT/);
  });

  it('keeps a Unix client half-open like a TCP one: a shaped tunnel delivers what the client sent before its end', async () => {
    let received = '';
    let ended!: () => void;
    const end = new Promise<void>((resolve) => (ended = resolve));
    const server = createNetServer((socket) => {
      socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
      socket.on('end', () => (socket.end(), ended()));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void server.close());
    const { port } = server.address() as AddressInfo;
    // Slow 3G: every chunk waits half its 400 ms round trip in the proxy before it goes on.
    const proxy = await startPolicyProxy(createTargetGuard(localTarget(`http://127.0.0.1:${port}`)), { network: 'slow-3g' });
    try {
      const client = connect(proxy.socketPath);
      client.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await new Promise<void>((resolve) => client.once('data', () => resolve()));
      client.end('last words');
      await end;
      expect(received).toBe('last words');
    } finally {
      await proxy.close();
    }
  });

  it('sweeps the socket folders a killed process left, never one in use', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'fullstop-jail-sweep-'));
    onTestFinished(() => rm(root, { recursive: true, force: true }));
    const folder = async (name: string) => (await mkdir(path.join(root, name)), path.join(root, name));
    // A socket whose process was killed (SIGKILL: nobody unlinked it), one that still listens, each a minute old; a
    // dead one just made; and a folder that is not ours to sweep.
    const dead = await folder('fullstop-proxy-dead');
    const killed = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path.join(dead, 'proxy.sock'))}, () => console.log('up'))`]);
    await new Promise<void>((resolve) => killed.stdout.once('data', () => resolve()));
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed.once('exit', resolve));
    const live = await folder('fullstop-forward-live');
    const server = createNetServer().listen(path.join(live, 'forward.sock'));
    onTestFinished(() => void server.close());
    await new Promise((resolve) => server.once('listening', resolve));
    const young = await folder('fullstop-proxy-young');
    await writeFile(path.join(young, 'proxy.sock'), '');
    const other = await folder('something-else');
    const old = new Date(Date.now() - 120_000);
    for (const dir of [dead, live, other]) await utimes(dir, old, old);
    await sweepStaleSocketDirs(root);
    expect((await readdir(root)).sort()).toEqual(['fullstop-forward-live', 'fullstop-proxy-young', 'something-else']);
  });

  it('forwards a Unix socket to one address only', async () => {
    const target = await startFixtureServer({ '/': (_req, res) => void res.end('endpoint') }, notFound);
    const port = Number(new URL(target.url).port);
    const forward = await startSocketForward('127.0.0.1', port);
    try {
      const wrapped = jailedCommand('/bin/sh', ['-c', `exec node -e "fetch('http://127.0.0.1:${port}/').then(r => r.text()).then(console.log, e => console.log(e.cause?.code))"`], {
        forwards: [{ address: '127.0.0.1', port, socket: forward.socketPath }],
      });
      const result = await runChild(wrapped.command, wrapped.args, { cwd: tmpdir(), signal: new AbortController().signal, timeoutMs: 60_000 });
      expect(result.stdout.trim()).toBe('endpoint');
    } finally {
      await forward.close();
      await target.close();
    }
  });

  it.each([
    ['Chromium', 'chromium', 'chromium'],
    ['Firefox (driven over WebDriver BiDi through the way in)', 'firefox', 'firefox'],
  ] as const)('runs our own %s in a namespace of its own, still reaching the target through the proxy', async (_name, engine, binary) => {
    const site = await startFixtureServer({ '/': (_req, res) => void res.end(html('Target', '<h1>Target</h1>')) }, notFound);
    const marker = `FULLSTOP_NET_JAIL_MARK_${process.pid}_${Date.now()}`;
    process.env[marker] = '1';
    const ctx = await makeContext();
    const guarded = await launchGuardedBrowser(createTargetGuard(localTarget(site.url)), ctx, { engine });
    try {
      const page = await guarded.browser.newPage();
      await page.goto(site.url);
      expect(await page.locator('h1').textContent()).toBe('Target');
      // The browser's processes (found by a variable of this process's environment, which Playwright passes on) are
      // in another network namespace than this process.
      const ours = await readlink('/proc/self/ns/net');
      const namespaces: string[] = [];
      for (const entry of await readdir('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const environ = await readFile(`/proc/${entry}/environ`, 'latin1').catch(() => '');
        const cmdline = await readFile(`/proc/${entry}/cmdline`, 'latin1').catch(() => '');
        if (environ.includes(`${marker}=1`) && cmdline.includes(binary) && !cmdline.includes('unshare') && !cmdline.startsWith('/bin/sh')) {
          namespaces.push(await readlink(`/proc/${entry}/ns/net`).catch(() => ours));
        }
      }
      expect(namespaces.length).toBeGreaterThan(0);
      expect(namespaces.filter((ns) => ns === ours)).toEqual([]);
    } finally {
      delete process.env[marker];
      await guarded.close();
      await site.close();
    }
  });

  describe('a browser test whose spec tries every way out', () => {
    let site: FixtureServer;
    let api: FixtureServer;
    let suiteDir: string;
    const apiRequests = () => api.requests;
    beforeAll(async () => {
      site = await startFixtureServer({ '/': (_req, res) => void res.end(html('Allowed', '<h1>Allowed target</h1>')) }, notFound);
      // Stands for the API (and its /healthz) on the runner's loopback.
      api = await startFixtureServer({ '/healthz': (_req, res) => void res.end('ok') }, notFound);
      suiteDir = await writeSuite('fullstop-suite-jail-', {
        'ways-out.spec.ts': [
          "import { writeFileSync } from 'node:fs';",
          "import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';",
          "import { expect, test } from '@playwright/test';",
          'const tcp = (host: string, port: number) => new Promise<string>((resolve) => {',
          '  const s = connect({ host, port });',
          '  s.setTimeout(5000);',
          "  s.once('connect', () => { s.destroy(); resolve('open'); });",
          "  s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));",
          "  s.once('timeout', () => { s.destroy(); resolve('timeout'); });",
          '});',
          'const unix = (path: string) => new Promise<string>((resolve) => {',
          '  const s = connect({ path });',
          "  s.once('connect', () => { s.destroy(); resolve('open'); });",
          "  s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));",
          '});',
          'const get = async (url: string) => {',
          '  try { return `status ${(await fetch(url, { signal: AbortSignal.timeout(5000) })).status}`; }',
          '  catch (e) { return `error ${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name}`; }',
          '};',
          "import { readdirSync, readFileSync } from 'node:fs';",
          // Whether a process of the attempt's browser host (shared-browsers.ts) is among the processes the spec sees.
          "const hostSeen = () => readdirSync('/proc').filter((p) => /^[0-9]+$/.test(p)).some((p) => { try { return readFileSync(`/proc/${p}/cmdline`, 'latin1').includes('browser-host'); } catch { return false; } });",
          "test('tries every way out, then loads the target', async ({ page, browser }) => {",
          // The shared browser's Playwright server (runners/browser/browser-servers.ts) runs a context's requests in its
          // own process: in the jail, and through the browser's policy proxy.
          '  const served = await browser.newContext();',
          '  const results = {',
          '    api: await get(`http://127.0.0.1:${process.env.FULLSTOP_JAIL_TEST_API_PORT}/healthz`),',
          "    postgres: await tcp('127.0.0.1', 5432),",
          "    redis: await tcp('127.0.0.1', 6379),",
          "    postgresSocket: await unix('/var/run/postgresql/.s.PGSQL.5432'),",
          "    metadata: await get('http://169.254.169.254/'),",
          '    browserServer: await served.request.get(`http://127.0.0.1:${process.env.FULLSTOP_JAIL_TEST_API_PORT}/healthz`, { timeout: 5000 }).then((r) => `status ${r.status()}`, (e: Error) => `error ${e.message.split(String.fromCharCode(10))[0]}`),',
          '    hostSeen: String(hostSeen()),',
          '  };',
          '  await served.close();',
          '  writeFileSync(process.env.FULLSTOP_JAIL_TEST_OUT!, JSON.stringify(results));',
          "  await page.goto('/');",
          "  await expect(page.locator('h1')).toHaveText('Allowed target');",
          '});',
        ],
      });
      process.env.FULLSTOP_JAIL_TEST_API_PORT = new URL(api.url).port;
    });
    afterAll(async () => {
      delete process.env.FULLSTOP_JAIL_TEST_API_PORT;
      await site?.close();
      await api?.close();
      if (suiteDir) await rm(suiteDir, { recursive: true, force: true });
    });

    const runSpec = async (options: Record<string, unknown> = {}) => {
      const { result, seen: ways } = await runReportingSpec<Record<'api' | 'postgres' | 'redis' | 'postgresSocket' | 'metadata' | 'browserServer' | 'hostSeen', string>>(suiteDir, 'ways-out.spec.ts', site.url, 'FULLSTOP_JAIL_TEST_OUT', options);
      return { result, ways };
    };
    /** Page checks beside the spec: its browser is then the attempt's browser host's (decision 0110). */
    const withPageChecks = { pages: [{ path: '/', expect: ['h1'] }], pageChecks: { axe: 'off', links: false, settleMs: 0 } };

    it('jailed: the API, the database (by TCP and by its socket), Redis and the metadata address are out of reach; the target loads through the proxy', async () => {
      const before = apiRequests();
      const { result, ways } = await runSpec();
      expect(result.error).toBeUndefined();
      expect(result.totals).toEqual({ totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0 });
      expect(ways.api).toMatch(/^error /);
      expect(apiRequests()).toBe(before);
      expect(ways.postgres).not.toBe('open');
      expect(ways.redis).not.toBe('open');
      expect(ways.postgresSocket).not.toBe('open');
      expect(ways.metadata).toMatch(/^error /);
      expect(ways.browserServer).not.toBe('status 200');
      expect(ways.hostSeen).toBe('false');
    });

    it('jailed, with page checks beside it: the spec drives the browser host’s browser, reaches nothing through it, and cannot see the host’s processes', async () => {
      const before = apiRequests();
      const { result, ways } = await runSpec(withPageChecks);
      expect(result.error).toBeUndefined();
      expect(result.totals).toEqual({ totalTests: 2, passedTests: 2, failedTests: 0, skippedTests: 0 });
      expect(ways.api).toMatch(/^error /);
      expect(ways.postgres).not.toBe('open');
      expect(ways.metadata).toMatch(/^error /);
      // Run by the host's Playwright server, in the host's jail: its only way out is the policy proxy.
      expect(ways.browserServer).not.toBe('status 200');
      expect(apiRequests()).toBe(before);
      // Another PID namespace: the host serving the page checks is not a process the spec can signal or trace.
      expect(ways.hostSeen).toBe('false');
    });

    it('unjailed (a switch for tests only), the same spec reaches the API: the test above can fail', async () => {
      setNetJailOffForTests(true);
      const before = apiRequests();
      const { result, ways } = await runSpec();
      expect(result.totals.passedTests).toBe(1);
      expect(ways.api).toBe('status 200');
      // The shared browser's requests still go through its launch's policy proxy, which refuses the API's port.
      expect(ways.browserServer).toBe('status 403');
      expect(apiRequests()).toBe(before + 1);
      // Unjailed, the browser host of a test with page checks is one of the processes the spec sees.
      expect((await runSpec(withPageChecks)).ways.hostSeen).toBe('true');
      // The database and Redis, where this machine runs them, answer unjailed too.
      if (await reachable(5432)) expect(ways.postgres).toBe('open');
      if (await reachable(6379)) expect(ways.redis).toBe('open');
      if (existsSync('/var/run/postgresql/.s.PGSQL.5432')) expect(ways.postgresSocket).toBe('open');
    });
  });
});

describe.skipIf(support.ok)('net jail unavailable', () => {
  it(`runs unjailed and says why: ${support.ok ? '' : support.reason}`, () => {
    expect(support.ok).toBe(false);
  });
});
