/**
 * Report benchmarks: figures, never pass/fail (see ../README.md).
 * A synthetic 20-test browser run with failures and real full-page PNG screenshots (made by Chromium from a
 * generated page): time and size of the html report (screenshots shrunk to JPEG inline) and of the pdf, against
 * the plain json reporter on the same run as a baseline. Targets: html and pdf each within 5 s, html <= 2 MB.
 * Set BENCH_OUT to a folder to keep the last round's files.
 */
import { cp, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { openReportBrowser, renderReportHtml, reporters, type CaseResult, type RunReport } from '@fullstop/engine';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TESTS = 20;
const FAILED = 8;
const HTML_TARGET_MS = 5_000;
const PDF_TARGET_MS = 5_000;
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
const ratio = (n: number, base: number) => (base > 0 ? `${Math.round(n / base)}x` : 'n/a');
const mb = (n: number) => `${(n / 1_000_000).toFixed(2)} MB`;

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'bench-reports-'));
  try {
    const runDir = path.join(root, 'run');
    const { paths, bytes } = await makeScreenshots(runDir);
    const report = runOf(paths);
    console.log(`\n## Reports of a ${TESTS}-test browser run, ${FAILED} failed, ${paths.length} PNG screenshots (${mb(bytes)}), ${ROUNDS} rounds`);
    const json: number[] = [];
    const bare: number[] = [];
    const html: number[] = [];
    const pdf: number[] = [];
    const launch: number[] = [];
    let htmlBytes = 0;
    let pdfBytes = 0;
    let outDir = '';
    for (let round = 1; round <= ROUNDS; round++) {
      outDir = path.join(root, `out-${round}`);
      await mkdir(outDir);
      const dirs = { runDir, outDir };
      let t = performance.now();
      await reporter('json').write(report, dirs);
      json.push(performance.now() - t);
      t = performance.now();
      renderReportHtml(report);
      bare.push(performance.now() - t);
      // The browser is launched by the first use; measured apart so html and pdf each show their own work.
      const tools = openReportBrowser(CHROMIUM_PATH);
      try {
        t = performance.now();
        await tools.printPdf('<p>warm up</p>');
        launch.push(performance.now() - t);
        t = performance.now();
        const htmlFile = await reporter('html').write(report, dirs, tools);
        html.push(performance.now() - t);
        t = performance.now();
        const pdfFile = await reporter('pdf').write(report, dirs, tools);
        pdf.push(performance.now() - t);
        htmlBytes = (await stat(htmlFile!)).size;
        pdfBytes = (await stat(pdfFile!)).size;
      } finally {
        await tools.close();
      }
      console.log(`round ${round}: json ${ms(json.at(-1)!)}, browser launch ${ms(launch.at(-1)!)}, html ${ms(html.at(-1)!)}, pdf ${ms(pdf.at(-1)!)}`);
    }
    const base = median(json);
    console.log('\n| figure | median | target | ratio to the json reporter |');
    console.log('|---|---|---|---|');
    console.log(`| json reporter (baseline) | ${ms(base)} | | 1 |`);
    console.log(`| html without screenshots (no browser) | ${ms(median(bare))} | | ${ratio(median(bare), base)} |`);
    console.log(`| Chromium launch | ${ms(median(launch))} | | ${ratio(median(launch), base)} |`);
    console.log(`| html, screenshots shrunk inline | ${ms(median(html))} | ≤ ${ms(HTML_TARGET_MS)} | ${ratio(median(html), base)} |`);
    console.log(`| pdf | ${ms(median(pdf))} | ≤ ${ms(PDF_TARGET_MS)} | ${ratio(median(pdf), base)} |`);
    console.log(`| html size | ${mb(htmlBytes)} | ≤ ${mb(HTML_TARGET_BYTES)} | screenshots in: ${mb(bytes)} |`);
    console.log(`| pdf size | ${mb(pdfBytes)} | | |`);
    const launchAndHtml = median(launch) + median(html);
    console.log(`\nhtml with the browser launch: ${ms(launchAndHtml)} (${launchAndHtml <= HTML_TARGET_MS ? 'within' : 'over'} target); ` +
      `pdf: ${median(pdf) <= PDF_TARGET_MS ? 'within' : 'over'} target; html size: ${htmlBytes <= HTML_TARGET_BYTES ? 'within' : 'over'} target`);
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
