/**
 * `node bench/engine/net-jail.ts [runs]`: what the network jail of client code (issue 37,
 * packages/engine/src/sandbox/net-jail.ts) costs. Jailed and unjailed take turns, in this process (the runner's code
 * without its process: what differs is the jail alone):
 *
 * - the probe (`netJailSupport`'s launch, once per process and user);
 * - a launch of `/bin/true` through `runChild`: unjailed, jailed without a forwarder, jailed with the proxy's
 *   forwarder (what every jailed launch adds: namespaces, loopback, socat, the wait for it, setpriv);
 * - a request through the policy proxy from inside a jail (`curl` to the proxy's forwarder) against one to its TCP
 *   port (the forwarder's fork per connection);
 * - our own Chromium (`launchGuardedBrowser`, a page loaded, closed);
 * - a browser test of the engine's fixture suite (4 cases, 1 Playwright worker): one attempt of the browser kind.
 *
 * Wall time medians, and CPU-seconds of this process's tree for the attempts. Figures, never pass/fail.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChild } from '../../packages/engine/src/lib/child-process.ts';
import { launchGuardedBrowser } from '../../packages/engine/src/lib/guarded-browser.ts';
import { startPolicyProxy } from '../../packages/engine/src/policy/policy-proxy.ts';
import { createTargetGuard } from '../../packages/engine/src/policy/target-guard.ts';
import { browserRunner } from '../../packages/engine/src/runners/browser/index.ts';
import { JAIL_PROXY_PORT, jailedCommand, netJailSupport, setNetJailOffForTests } from '../../packages/engine/src/sandbox/net-jail.ts';
import type { RunContext } from '../../packages/engine/src/types.ts';
import { startHardenedServer } from '../../packages/engine/test/fixtures/hardened-server.ts';
import { meterCpu } from './cpu.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

const RUNS = Number(process.argv[2] ?? 9);
const SUITE = fileURLToPath(new URL('../../packages/engine/test/fixtures/browser-suite', import.meta.url));

const support = netJailSupport(null);
if (!support.ok) {
  console.log(`no jail here: ${support.reason}`);
  process.exit(0);
}
const meter = meterCpu(process.pid);
const root = mkdtempSync(path.join(tmpdir(), 'fullstop-bench-jail-'));
const suiteDir = mkdtempSync(path.join(tmpdir(), 'fullstop-bench-suite-'));
cpSync(SUITE, suiteDir, { recursive: true });
const site = await startHardenedServer();
const target = { baseUrl: site.url, allowedOrigins: [], allowPrivateAddresses: true };
const guard = () => createTargetGuard(target);
const signal = new AbortController().signal;
let counter = 0;
const ctx = (): RunContext => ({ runDir: mkdtempSync(path.join(root, `run-${++counter}-`)), signal, chromiumPath: process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH, workers: 1, log: () => {} });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; cpu: number }> {
  const cpu0 = meter.seconds();
  const t0 = performance.now();
  await work();
  return { ms: performance.now() - t0, cpu: meter.seconds() - cpu0 };
}

/** Each variant of a case in turn, RUNS times, after one warm-up each; medians. */
async function compare(name: string, variants: Record<string, () => Promise<unknown>>, runs = RUNS): Promise<void> {
  const samples: Record<string, { ms: number; cpu: number }[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (const work of Object.values(variants)) await work();
  for (let i = 0; i < runs; i++) for (const [k, work] of Object.entries(variants)) samples[k]!.push(await timed(work));
  const row = Object.fromEntries(Object.entries(samples).flatMap(([k, s]) => [[`${k} ms`, Math.round(median(s.map((x) => x.ms)))], [`${k} CPU-ms`, Math.round(1000 * median(s.map((x) => x.cpu)))]]));
  console.log(name, row);
}

try {
  const probe = jailedCommand('/bin/true', [], { forwards: [{ port: 80, socket: '/nonexistent/x.sock' }] });
  await compare('probe (spawnSync, as netJailSupport)', { jail: async () => spawnSync(probe.command, probe.args, { stdio: 'ignore' }) });

  const proxy = await startPolicyProxy(guard());
  const child = { cwd: root, signal, timeoutMs: 60_000 };
  await compare('runChild /bin/true', {
    unjailed: () => runChild('/bin/true', [], child),
    'jailed, no forwarder': () => runChild('/bin/true', [], { ...child, jail: { forwards: [] } }),
    'jailed, proxy forwarder': () => runChild('/bin/true', [], { ...child, jail: { proxySocket: proxy.socketPath, proxyPort: JAIL_PROXY_PORT } }),
  });
  // 20 requests through the proxy in one curl process, from inside a jail and from outside: the forwarder's share.
  const urls = Array.from({ length: 20 }, () => `${site.url}/about`);
  await compare('20 proxied requests (one curl, new connection each)', {
    unjailed: () => runChild('curl', ['-s', '-o', '/dev/null', '--proxy', proxy.url, ...urls.flatMap((u) => ['-H', 'Connection: close', u])], child),
    jailed: () => runChild('curl', ['-s', '-o', '/dev/null', '--proxy', `http://127.0.0.1:${JAIL_PROXY_PORT}`, ...urls.flatMap((u) => ['-H', 'Connection: close', u])], { ...child, jail: { proxySocket: proxy.socketPath, proxyPort: JAIL_PROXY_PORT } }),
  });
  await proxy.close();

  const chromium = async (off: boolean) => {
    setNetJailOffForTests(off);
    const g = await launchGuardedBrowser(guard(), ctx());
    try {
      const page = await g.browser.newPage();
      await page.goto(site.url);
    } finally {
      await g.close();
      setNetJailOffForTests(false);
    }
  };
  await compare('Chromium: launch, one page, close', { unjailed: () => chromium(true), jailed: () => chromium(false) });

  const attempt = async (off: boolean) => {
    setNetJailOffForTests(off);
    try {
      const result = await browserRunner.run({ name: 'b', group: 'G', kind: 'browser', options: {}, suiteDir }, target, ctx());
      if (result.totals.totalTests !== 4) throw new Error(`the suite ran ${JSON.stringify(result.totals)}: ${result.error}`);
    } finally {
      setNetJailOffForTests(false);
    }
  };
  await compare('browser attempt (4 cases, 1 worker)', { unjailed: () => attempt(true), jailed: () => attempt(false) }, Math.max(3, Math.ceil(RUNS / 2)));
  console.log(`\nmedians of ${RUNS} runs (attempts: ${Math.max(3, Math.ceil(RUNS / 2))}); CPU: ${meter.how}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
} finally {
  await site.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(suiteDir, { recursive: true, force: true });
  await meter.close();
}
