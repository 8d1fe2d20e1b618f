/**
 * Report benchmarks: figures, never pass/fail (see ../README.md).
 *
 * 1. One attempt's reports, the old way (a Chromium launched per attempt to print the pdf; decision 0066 keeps that
 *    path only here, in old-way.ts) against the new (json, html, junit, zip; no browser), in the same rounds, for
 *    an API test and for a 20-test browser run with real full-page PNG screenshots: CPU seconds (this process and
 *    the Chromium it reaped), wall time, peak memory of the process tree above where it stood.
 * 2. The 20 screenshots shrunk to JPEG: in a browser's canvas (old) against sharp (new).
 * 3. The pdf on download through the server's own code: first download with no report browser running, first
 *    download of another report while it runs, second download (the stored file).
 * 4. Sizes of the browser run's html and pdf, and the html's time against the plain json reporter.
 * Set BENCH_OUT to a folder to keep the last round's files.
 */
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { reporters, shrinkImage, type CaseResult, type RunReport, writeReports } from '@fullstop/engine';
import { apiSample } from '../../packages/engine/src/reporters/fixtures.ts';
import { downloadApp, type DownloadFigures, downloadRound } from './download.ts';
import { shrinkOldWay, writeReportsOldWay } from './old-way.ts';
import { type Cost, measure } from './usage.ts';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TESTS = 20;
const FAILED = 8;
const HTML_TARGET_MS = 5_000;
const HTML_TARGET_BYTES = 2_000_000;

const reporter = (format: string) => {
  const r = reporters.find((x) => x.format === format);
  if (!r) throw new Error(`no ${format} reporter`);
  return r;
};

/** Twenty different shop pages, screenshotted full-page at 1280 px as Playwright does on failure. */
async function makeScreenshots(runDir: string): Promise<{ paths: string[]; bytes: number }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const paths: string[] = [];
  let bytes = 0;
  for (let i = 0; i < TESTS; i++) {
    const rows = Array.from(
      { length: 14 + (i % 7) * 3 },
      (_, j) =>
        `<div style="display:flex;gap:16px;padding:12px;border-bottom:1px solid #ddd;background:hsl(${(i * 37 + j * 11) % 360} 60% 94%)">` +
        `<div style="width:96px;height:72px;background:linear-gradient(135deg,hsl(${j * 30} 70% 55%),hsl(${i * 18} 70% 35%))"></div>` +
        `<div><b>Product ${i}-${j}</b><p style="margin:4px 0">Hand-made, ships in 2 days. Was €${20 + j}.99, now €${15 + j}.49.</p></div></div>`,
    ).join('');
    await page.setContent(
      `<body style="margin:0;font:15px system-ui,sans-serif"><header style="padding:20px;background:#123;color:#fff;font-size:24px">Acme Shop · page ${i}</header>${rows}` +
        `<footer style="padding:40px;background:#eee">Payment declined: card 4000 0000 0000 0002</footer></body>`,
    );
    const rel = `attempt-1/test-results/case-${i}/test-failed-1.png`;
    await mkdir(path.join(runDir, path.dirname(rel)), { recursive: true });
    const png = await page.screenshot({ fullPage: true, path: path.join(runDir, rel) });
    bytes += png.length;
    paths.push(rel);
  }
  await browser.close();
  return { paths, bytes };
}

function runOf(shots: string[]): RunReport {
  const cases: CaseResult[] = shots.map((shot, i) => {
    const failed = i < FAILED;
    return {
      name: `shop.spec.ts › page ${i} › ${failed ? 'pays by card' : 'shows the catalogue'}`,
      status: failed ? 'failed' : 'passed',
      durationMs: 1_000 + i * 731.37,
      ...(failed
        ? {
            error: `Error: expect(locator).toHaveText(expected)\n\nExpected: "Thank you"\nReceived: "Payment declined"\n\n  at shop.spec.ts:${40 + i}:7`,
            steps: [
              { title: `page.goto(/page/${i})`, durationMs: 812 },
              { title: 'click "Pay now"', durationMs: 230 },
              { title: 'expect(locator).toHaveText("Thank you")', durationMs: 5_000, error: 'Timed out 5000ms' },
            ],
            screenshot: shot.replace(/^attempt-1\//, ''),
            trace: `test-results/case-${i}/trace.zip`,
          }
        : {}),
    };
  });
  return {
    clientName: 'Acme Shop',
    testName: 'Checkout, 20 pages',
    group: 'Frontend',
    kind: 'browser',
    runId: 'bench',
    status: 'failed',
    totals: { totalTests: TESTS, passedTests: TESTS - FAILED, failedTests: FAILED, skippedTests: 0 },
    durationMs: 95_000,
    startedAt: new Date(Date.now() - 95_000).toISOString(),
    finishedAt: new Date().toISOString(),
    target: 'https://shop.acme.test',
    summary: { kind: 'browser', cases },
    error: null,
    // Playwright writes a screenshot for every test here (screenshot: 'on'): the passing ones are shown too.
    artifacts: shots.map((p) => ({ path: p, kind: 'screenshot' as const, contentType: 'image/png' })),
    attempts: [{ attempt: 1, status: 'failed', startedAt: new Date().toISOString(), finishedAt: new Date().toISOString(), error: null, logPath: null }],
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (n: number) => (n < 10 ? `${n.toFixed(2)} ms` : `${Math.round(n)} ms`);
const mb = (n: number) => `${(n / 1_000_000).toFixed(2)} MB`;
const cpu = (n: number) => `${n.toFixed(2)} s`;
const times = (n: number, base: number) => (base > 0 ? `${(n / base).toFixed(2)}` : 'n/a');

/** The demo's kind of API test: its requests' cases, no screenshots. */
function apiRun(): RunReport {
  return { ...apiSample(), attempts: [{ attempt: 1, status: 'failed', startedAt: new Date().toISOString(), finishedAt: new Date().toISOString(), error: null, logPath: null }] };
}

interface Way {
  old: Cost[];
  now: Cost[];
}

async function attemptCosts(root: string, name: string, report: RunReport, runDir: string): Promise<Way> {
  const way: Way = { old: [], now: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternated, so a machine that gets busier or quieter during the bench weighs on both.
    const order: ('old' | 'now')[] = round % 2 ? ['old', 'now'] : ['now', 'old'];
    for (const which of order) {
      const outDir = path.join(root, `${name}-${which}-${round}`);
      await mkdir(outDir, { recursive: true });
      const dirs = { runDir, outDir };
      const cost = await measure(() => (which === 'old' ? writeReportsOldWay(report, dirs, CHROMIUM_PATH) : writeReports(report, dirs)));
      way[which].push(cost);
      console.log(`${name} round ${round} ${which === 'old' ? 'old' : 'new'}: ${ms(cost.wallMs)}, ${cpu(cost.cpuSeconds)} CPU, +${mb(cost.peakAddedBytes)}`);
    }
  }
  return way;
}

function attemptTable(rows: [string, Way][]): void {
  console.log('\n| attempt | figure | old way (browser per attempt) | new way (no browser) | new / old |');
  console.log('|---|---|---|---|---|');
  for (const [name, way] of rows) {
    const pick = (f: (c: Cost) => number) => [median(way.old.map(f)), median(way.now.map(f))] as const;
    const [oc, nc] = pick((c) => c.cpuSeconds);
    const [ow, nw] = pick((c) => c.wallMs);
    const [om, nm] = pick((c) => c.peakAddedBytes);
    console.log(`| ${name} | CPU | ${cpu(oc)} | ${cpu(nc)} | ${times(nc, oc)} |`);
    console.log(`| ${name} | wall | ${ms(ow)} | ${ms(nw)} | ${times(nw, ow)} |`);
    console.log(`| ${name} | peak memory added | ${mb(om)} | ${mb(nm)} | ${times(nm, om)} |`);
  }
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'bench-reports-'));
  try {
    const runDir = path.join(root, 'run');
    const { paths, bytes } = await makeScreenshots(runDir);
    const browserRun = runOf(paths);
    const pngs = await Promise.all(paths.map((p) => readFile(path.join(runDir, p))));
    console.log(`\n## 1. One attempt's reports, old way against new, ${ROUNDS} rounds each, alternated`);
    const apiDir = path.join(root, 'api-run');
    await mkdir(apiDir);
    await writeFile(path.join(apiDir, 'attempt-1.log'), 'GET /api/products 200 in 88 ms\nPOST /api/cart 500 in 140 ms\n');
    const api = await attemptCosts(root, 'API test', { ...apiRun(), attempts: apiRun().attempts.map((a) => ({ ...a, logPath: 'attempt-1.log' })) }, apiDir);
    const browser = await attemptCosts(root, `browser run (${TESTS} tests, ${paths.length} PNG screenshots, ${mb(bytes)})`, browserRun, runDir);
    attemptTable([
      ['API test (3 requests)', api],
      [`browser run, ${paths.length} screenshots`, browser],
    ]);

    console.log(`\n## 2. ${paths.length} full-page screenshots shrunk to JPEG, ${ROUNDS} rounds`);
    const oldShrink: Cost[] = [];
    const sharpShrink: Cost[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      oldShrink.push(await measure(() => shrinkOldWay(pngs, CHROMIUM_PATH)));
      sharpShrink.push(
        await measure(async () => {
          let next = 0;
          const worker = async () => {
            for (let i = next++; i < pngs.length; i = next++) await shrinkImage(pngs[i]!);
          };
          await Promise.all(Array.from({ length: 4 }, worker));
        }),
      );
    }
    console.log('\n| shrinker | wall | CPU | peak memory added |');
    console.log('|---|---|---|---|');
    for (const [name, costs] of [['browser canvas, launch included (old)', oldShrink], ['sharp (new)', sharpShrink]] as const) {
      console.log(`| ${name} | ${ms(median(costs.map((c) => c.wallMs)))} | ${cpu(median(costs.map((c) => c.cpuSeconds)))} | ${mb(median(costs.map((c) => c.peakAddedBytes)))} |`);
    }

    console.log(`\n## 3. The pdf on download, through storedReport + serveReport, ${ROUNDS} rounds`);
    const store = path.join(root, 'store');
    const app = await downloadApp(store, CHROMIUM_PATH);
    const apiHtml = await readFile(path.join(root, 'API test-now-1', 'report.html'), 'utf8');
    const browserHtml = await readFile(path.join(root, `browser run (${TESTS} tests, ${paths.length} PNG screenshots, ${mb(bytes)})-now-1`, 'report.html'), 'utf8');
    const downloads: Record<string, DownloadFigures[]> = { 'API test': [], [`browser run, ${paths.length} screenshots`]: [] };
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        downloads['API test']!.push(await downloadRound(app, store, apiHtml, `api-${round}`));
        downloads[`browser run, ${paths.length} screenshots`]!.push(await downloadRound(app, store, browserHtml, `browser-${round}`));
      }
    } finally {
      await app.close();
    }
    console.log('\n| report | first download, no report browser running | first download, report browser up | second download (stored) | pdf size |');
    console.log('|---|---|---|---|---|');
    for (const [name, rounds] of Object.entries(downloads)) {
      const m = (f: (d: DownloadFigures) => number) => median(rounds.map(f));
      console.log(`| ${name} | ${ms(m((d) => d.coldFirstMs))} | ${ms(m((d) => d.warmFirstMs))} | ${ms(m((d) => d.secondMs))} | ${mb(m((d) => d.pdfBytes))} |`);
    }

    console.log(`\n## 4. The browser run's html against the json reporter, ${ROUNDS} rounds`);
    const json: number[] = [];
    const html: number[] = [];
    let outDir = '';
    let htmlBytes = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      outDir = path.join(root, `out-${round}`);
      await mkdir(outDir);
      const dirs = { runDir, outDir };
      let t = performance.now();
      await reporter('json').write(browserRun, dirs);
      json.push(performance.now() - t);
      t = performance.now();
      const htmlFile = await reporter('html').write(browserRun, dirs);
      html.push(performance.now() - t);
      htmlBytes = (await stat(htmlFile!)).size;
    }
    console.log('\n| figure | median | target |');
    console.log('|---|---|---|');
    console.log(`| json reporter (baseline) | ${ms(median(json))} | |`);
    console.log(`| html, screenshots shrunk inline by sharp | ${ms(median(html))} (${Math.round(median(html) / median(json))}x the json) | ≤ ${ms(HTML_TARGET_MS)} |`);
    console.log(`| html size | ${mb(htmlBytes)} (screenshots in: ${mb(bytes)}) | ≤ ${mb(HTML_TARGET_BYTES)} |`);
    if (process.env.BENCH_OUT) {
      await mkdir(process.env.BENCH_OUT, { recursive: true });
      await cp(outDir, process.env.BENCH_OUT, { recursive: true });
      await writeFile(path.join(process.env.BENCH_OUT, 'README.txt'), 'Files of the last bench round.\n');
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
