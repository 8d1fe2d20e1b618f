/**
 * Security scan benchmark: figures, never pass/fail (see ../README.md). The active scan of the planted fixture
 * with the default modules, timed two ways in the same run, alternating:
 *  - baseline: one wapiti process for the crawl and every module, as the runner ran it before decision 0058;
 *  - now: runWapiti, which reads the session for coverage and would run a crashed module again around the URL
 *    that broke it (the planted site crashes nothing, so this is the cost on a clean scan).
 * And once: the whole runner (passive checks + active scan) on the planted site.
 * `node --import tsx bench/scan/run.ts` (needs /usr/bin/wapiti).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { securityScanRunner, type RunContext, type RunTarget } from '@fullstop/engine';
import { runChild } from '../../packages/engine/src/lib/child-process.ts';
import { startPolicyProxy } from '../../packages/engine/src/policy/policy-proxy.ts';
import { createTargetGuard } from '../../packages/engine/src/policy/target-guard.ts';
import { DEFAULT_WAPITI_MODULES, DEFAULT_WAPITI_PATH, runWapiti } from '../../packages/engine/src/runners/security-scan/wapiti.ts';
import { startPlantedServer } from '../../packages/engine/test/fixtures/planted-server.ts';
import { STAND_IN_WAPITI, startTrapSite } from '../../packages/engine/test/fixtures/trap-site.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MAX_SCAN_SECONDS = 120;

const local = (baseUrl: string): RunTarget => ({ baseUrl, allowedOrigins: [], allowPrivateAddresses: true });

async function context(root: string, name: string): Promise<RunContext> {
  const runDir = path.join(root, name);
  await mkdir(runDir, { recursive: true });
  return { runDir, signal: new AbortController().signal, chromiumPath: '', workers: 1, log: () => undefined };
}

/** The single wapiti process the runner started before: same arguments, no coverage, no second run. */
async function baseline(ctx: RunContext, startUrl: string, proxyUrl: string): Promise<void> {
  const dir = path.join(ctx.runDir, 'wapiti');
  await mkdir(path.join(dir, 'config'), { recursive: true });
  await writeFile(path.join(dir, 'config', 'apps.json'), JSON.stringify({ technologies: {}, categories: {} }));
  // prettier-ignore
  const args = ['-u', startUrl, '--scope', 'folder', '-m', DEFAULT_WAPITI_MODULES.join(','), '-d', '2', '--max-scan-time', String(MAX_SCAN_SECONDS),
    '--max-attack-time', String(MAX_SCAN_SECONDS / 2), '-t', '10', '--flush-session', '--store-session', path.join(dir, 'session'),
    '--store-config', path.join(dir, 'config'), '--no-bugreport', '-v', '1', '-f', 'json', '-o', path.join(dir, 'report.json'), '--proxy', `${proxyUrl}/`];
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, http_proxy: proxyUrl, https_proxy: proxyUrl };
  delete env.NO_PROXY;
  delete env.no_proxy;
  await runChild(DEFAULT_WAPITI_PATH, args, { cwd: dir, env, signal: ctx.signal, timeoutMs: (MAX_SCAN_SECONDS + 30) * 1000 });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const root = await mkdtemp(path.join(tmpdir(), 'bench-scan-'));
const planted = await startPlantedServer();
try {
  const guard = createTargetGuard(local(planted.url));
  const start = (await guard.check('/')).href;
  const times = { baseline: [] as number[], now: [] as number[] };
  console.log(`## Active scan of the planted fixture (${DEFAULT_WAPITI_MODULES.length} modules, ${ROUNDS} rounds, alternating)`);
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 ? (['now', 'baseline'] as const) : (['baseline', 'now'] as const)) {
      const ctx = await context(root, `${which}-${round}`);
      const proxy = await startPolicyProxy(guard);
      const t0 = performance.now();
      try {
        if (which === 'baseline') await baseline(ctx, start, proxy.url);
        else {
          const result = await runWapiti({ startUrl: start, modules: DEFAULT_WAPITI_MODULES, depth: 2, maxScanSeconds: MAX_SCAN_SECONDS, excludes: [], proxyUrl: proxy.url }, ctx);
          if (!result.coverage.complete) console.log(`  (round ${round}: incomplete: ${result.coverage.incomplete})`);
        }
      } finally {
        await proxy.close();
      }
      times[which].push(performance.now() - t0);
    }
  }
  console.log(`baseline (one wapiti process, before 0058): median ${s(median(times.baseline))}  [${times.baseline.map(s).join(', ')}]`);
  console.log(`now (runWapiti with coverage):            median ${s(median(times.now))}  [${times.now.map(s).join(', ')}]`);
  const t0 = performance.now();
  const whole = await securityScanRunner.run({ name: 'bench scan', group: 'bench', kind: 'security-scan', options: {} }, local(planted.url), await context(root, 'runner'));
  console.log(`whole runner (passive + active, defaults): ${s(performance.now() - t0)}, ${whole.status}`);
  for (const [label, trap] of [['trap site, nothing crashes', {}], ['trap site, exec crashes on /crash', { 'x-fixture-crash': 'exec' }]] as const) {
    const site = await startTrapSite(trap);
    try {
      const ctx = { ...(await context(root, label.replace(/\W+/g, '-'))), wapitiPath: STAND_IN_WAPITI };
      const t1 = performance.now();
      const r = await securityScanRunner.run({ name: 'bench scan', group: 'bench', kind: 'security-scan', options: { crawl: false } }, local(site.url), ctx);
      console.log(`${label}: ${s(performance.now() - t1)}, ${r.status}${r.errorCode ? ` (${r.errorCode})` : ''}`);
    } finally {
      await site.close();
    }
  }
} finally {
  await planted.close();
  await rm(root, { recursive: true, force: true });
}
