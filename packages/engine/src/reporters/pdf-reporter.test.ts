import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUARDED_CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH } from '../lib/chromium.ts';
import { browserSample, runSample } from './fixtures.ts';
import { writeReports, writeRunReport } from './index.ts';

const BROWSER_TEST_TIMEOUT_MS = 120_000;
const SHOT = 'test-results/checkout-pays-by-card/test-failed-1.png';
/** A 1x1 PNG: small enough to be kept as it is without a browser. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let dir = '';
let png: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pdf-reporter-'));
  // A real full-page screenshot, as Playwright writes them on failure.
  const browser = await chromium.launch({ executablePath: DEFAULT_CHROMIUM_PATH, args: GUARDED_CHROMIUM_FLAGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.setContent(
    `<body style="margin:0;font:16px sans-serif">${Array.from({ length: 60 }, (_, i) => `<p style="padding:8px;background:hsl(${i * 6} 70% 85%)">Row ${i}: the cart total is wrong</p>`).join('')}</body>`,
  );
  png = await page.screenshot({ fullPage: true });
  await browser.close();
}, BROWSER_TEST_TIMEOUT_MS);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The policy the server serves reports with: the report must need nothing more. */
const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** Opens the html as the server would serve it: styles applied, the screenshot drawn, no CSP violation. */
async function expectStyledUnderReportCsp(html: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: DEFAULT_CHROMIUM_PATH, args: GUARDED_CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.route('https://reports.test/report.html', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'content-security-policy': REPORT_CSP }, body: html }),
    );
    await page.goto('https://reports.test/report.html');
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('system-ui');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.verdict')!).color)).toBe('rgb(207, 34, 46)');
    expect(await page.evaluate(() => (document.querySelector('img.shot') as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    // Nothing wider than the phone's screen but the boxes that scroll on their own.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(violations).toEqual([]);
  } finally {
    await browser.close();
  }
}

const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;

describe('pdf report and inline screenshots', () => {
  it(
    'prints an A4 pdf and inlines the failure screenshot shrunk to JPEG',
    async () => {
      const runDir = path.join(dir, 'with-browser');
      await mkdir(path.join(runDir, 'attempt-1', path.dirname(SHOT)), { recursive: true });
      await writeFile(path.join(runDir, 'attempt-1', SHOT), png);
      const outDir = path.join(runDir, 'reports');
      await mkdir(outDir);
      // The runner names the screenshot inside its attempt folder; the server prefixes artifacts with it.
      const report = { ...browserSample(), artifacts: [{ path: `attempt-1/${SHOT}`, kind: 'screenshot' as const, contentType: 'image/png' }] };
      const written = await writeReports(report, { runDir, outDir, chromiumPath: DEFAULT_CHROMIUM_PATH });
      expect(Object.keys(written)).toEqual(['json', 'html', 'pdf', 'xml', 'zip']);
      const html = await readFile(written.html!, 'utf8');
      const jpeg = /<img class="shot" src="data:image\/jpeg;base64,([A-Za-z0-9+/=]+)"/.exec(html)?.[1];
      expect(jpeg).toBeDefined();
      expect(Buffer.from(jpeg!, 'base64').length).toBeLessThan(png.length / 2);
      expect(html).not.toContain('Screenshots (');
      const pdf = await readFile(written.pdf!);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pageCount(pdf)).toBeGreaterThanOrEqual(1);
      expect(pdf.toString('latin1')).toMatch(/\/MediaBox\s*\[\s*0 0 59[45]\.\d+ 841\.\d+\s*\]/);
      await expectStyledUnderReportCsp(html);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'writes the run report as html and pdf',
    async () => {
      const outDir = path.join(dir, 'run');
      await mkdir(outDir);
      const files = await writeRunReport(runSample(), { outDir, chromiumPath: DEFAULT_CHROMIUM_PATH });
      expect(await readFile(files.html, 'utf8')).toContain('7 of 9 tests failed');
      const pdf = await readFile(files.pdf!);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pageCount(pdf)).toBeGreaterThan(1);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it('a browser that cannot start leaves the run report without its pdf, says why, and keeps the html', async () => {
    const outDir = path.join(dir, 'run-no-chromium');
    await mkdir(outDir);
    const skipped: string[] = [];
    const files = await writeRunReport(runSample(), { outDir, chromiumPath: '/nonexistent/chromium', onSkipped: (format) => skipped.push(format) });
    expect(files.pdf).toBeUndefined();
    expect(skipped).toEqual(['pdf']);
    expect(await readFile(files.html, 'utf8')).toContain('7 of 9 tests failed');
  });

  it('without a browser skips the pdf, keeps small screenshots as they are and names large ones', async () => {
    const runDir = path.join(dir, 'no-browser');
    await mkdir(path.join(runDir, 'shots'), { recursive: true });
    await writeFile(path.join(runDir, 'shots', 'tiny.png'), TINY_PNG);
    await writeFile(path.join(runDir, 'shots', 'large.png'), Buffer.concat([png, Buffer.alloc(200_000)]));
    const report = {
      ...browserSample(),
      artifacts: [
        { path: 'shots/tiny.png', kind: 'screenshot' as const, contentType: 'image/png' },
        { path: 'shots/large.png', kind: 'screenshot' as const, contentType: 'image/png' },
      ],
    };
    const written = await writeReports(report, { runDir, outDir: runDir });
    expect(Object.keys(written)).toEqual(['json', 'html', 'xml', 'zip']);
    const html = await readFile(written.html!, 'utf8');
    expect(html).toContain(`src="data:image/png;base64,${TINY_PNG.toString('base64')}"`);
    expect(html).toContain('shots / large.png: in the zip report');
  });
});
