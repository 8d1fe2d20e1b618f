/**
 * Lighthouse (mobile, default simulated throttling) on every public route of the built app, served by our
 * own server on a temporary data directory. Prints the four category scores per route, the gzip size of the
 * JavaScript that `/` loads, and whether any public page loads portal or chart code.
 *
 *   npm run build && npm run bench:lighthouse
 *
 * LIGHTHOUSE_PORT (default 3110) picks the port; CHROMIUM_PATH (default /usr/bin/chromium) the browser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { marketingPaths } from '@fullstop/contracts';
import { CHROMIUM_FLAGS } from '@fullstop/engine/chromium';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const webRoot = path.join(root, 'apps/web');
const port = Number(process.env.LIGHTHOUSE_PORT ?? 3110);
const base = `http://127.0.0.1:${port}`;
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGET_SCORE = 95;
const JS_BUDGET_KB = 100;
const SERVER_START_TIMEOUT_MS = 60_000;
/** Source paths that must never reach a public page. */
// The portal route table itself (paths and two guards) is in the main chunk by design; its pages are not.
const FORBIDDEN_MODULES = [/src\/features\/portal\/(?!routes\.tsx$)/, /node_modules\/recharts\//, /node_modules\/@reduxjs\//, /node_modules\/react-redux\//];
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      })
      .on('error', reject);
  });
}

async function startServer(dataDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with code ${server.exitCode}`);
    try {
      if ((await get(`${base}/healthz`)).status === 200) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  server.kill();
  throw new Error(`server did not answer ${base}/healthz within ${SERVER_START_TIMEOUT_MS} ms`);
}

interface RouteResult {
  route: string;
  scores: Record<(typeof CATEGORIES)[number], number>;
  scripts: string[];
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

async function audit(chromePort: number, route: string): Promise<RouteResult> {
  const result = await lighthouse(`${base}${route}`, {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error(`lighthouse returned nothing for ${route}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${route}: ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as RouteResult['scores'];
  const requests = (lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string }[] } | undefined)?.items ?? [];
  const scripts = requests.filter((r) => r.resourceType === 'Script' && r.url.startsWith(base)).map((r) => new URL(r.url).pathname);
  return {
    route,
    scores,
    scripts,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
  };
}

/** Lighthouse sometimes loses a trace on a busy machine (NO_NAVSTART, NO_FCP); such a run is repeated. */
const ATTEMPTS = 3;
async function auditWithRetry(chromePort: number, route: string): Promise<RouteResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(chromePort, route);
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error;
      console.error(`  ${route}: ${(error as Error).message}; retrying`);
    }
  }
}

function forbiddenIn(scripts: string[], chunkModules: Record<string, string[]>): string[] {
  const hits: string[] = [];
  for (const script of scripts) {
    const modules = chunkModules[script.replace(/^\//, '')] ?? [];
    for (const m of modules) if (FORBIDDEN_MODULES.some((re) => re.test(m))) hits.push(`${script}: ${m}`);
  }
  return hits;
}

async function main(): Promise<void> {
  if (!existsSync(path.join(webRoot, 'dist/index.html'))) throw new Error('apps/web/dist is missing: run "npm run build" first');
  const chunkMapFile = path.join(webRoot, 'node_modules/.cache/fullstop-web/chunk-modules.json');
  const chunkModules = existsSync(chunkMapFile) ? (JSON.parse(readFileSync(chunkMapFile, 'utf8')) as Record<string, string[]>) : null;

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-lighthouse-'));
  const server = await startServer(dataDir);
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  const results: RouteResult[] = [];
  let homeGzip = 0;
  try {
    // One page at a time: each run takes ~300 MB and both cores.
    for (const route of marketingPaths) {
      const r = await auditWithRetry(chrome.port, route);
      results.push(r);
      console.error(`  ${route}: ${CATEGORIES.map((c) => r.scores[c]).join(' / ')}`);
    }
    // Measured from our own server with gzip only, so the figure does not depend on brotli support.
    for (const script of results.find((r) => r.route === '/')?.scripts ?? []) {
      homeGzip += (await get(`${base}${script}`, { 'accept-encoding': 'gzip' })).bytes;
    }
  } finally {
    await chrome.kill();
    server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const pad = (s: string | number, n: number) => String(s).padEnd(n);
  console.log(`\nLighthouse ${'(mobile, simulated throttling)'} on ${base}\n`);
  console.log(`${pad('route', 20)}${CATEGORIES.map((c) => pad(c, 16)).join('')}${pad('LCP ms', 9)}${pad('TBT ms', 9)}CLS`);
  for (const r of results) {
    console.log(
      `${pad(r.route, 20)}${CATEGORIES.map((c) => pad(r.scores[c], 16)).join('')}${pad(Math.round(r.lcpMs), 9)}${pad(Math.round(r.tbtMs), 9)}${r.cls.toFixed(3)}`,
    );
  }
  const low = results.flatMap((r) => CATEGORIES.filter((c) => r.scores[c] < TARGET_SCORE).map((c) => `${r.route} ${c} ${r.scores[c]}`));

  const home = results.find((r) => r.route === '/');
  const homeKb = homeGzip / 1024;

  const forbidden = chunkModules ? results.flatMap((r) => forbiddenIn(r.scripts, chunkModules).map((h) => `${r.route} -> ${h}`)) : null;

  console.log(`\nJS loaded by /: ${home?.scripts.length ?? 0} files, ${homeKb.toFixed(1)} KB gzip (budget ${JS_BUDGET_KB} KB)`);
  for (const s of home?.scripts ?? []) console.log(`  ${s}`);
  if (forbidden === null) console.log('Portal/chart check: skipped (no chunk map; rebuild with "npm run build")');
  else if (forbidden.length === 0) console.log('Portal/chart check: no public page loads portal, Redux or Recharts code');
  else console.log(`Portal/chart check: FAILED\n  ${forbidden.join('\n  ')}`);
  console.log(low.length ? `\nBelow ${TARGET_SCORE}: ${low.join(', ')}` : `\nEvery category >= ${TARGET_SCORE} on every public route.`);
  if (low.length || homeKb > JS_BUDGET_KB || (forbidden && forbidden.length)) process.exitCode = 1;
}

await main();
