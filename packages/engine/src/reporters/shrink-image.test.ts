import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHROMIUM_PATH, GUARDED_CHROMIUM_FLAGS } from '../lib/chromium.ts';
import { browserSample } from './fixtures.ts';
import { writeReports } from './index.ts';
import { SHOT_MAX_HEIGHT, SHOT_MAX_WIDTH, shrinkImage } from './shrink-image.ts';

const SHOT = 'test-results/checkout-pays-by-card/test-failed-1.png';
/** What screenshots.ts allows all images of one report together. */
const MAX_TOTAL_BYTES = 1_600_000;

let dir = '';
/** A full-page screenshot of a long, busy page: wider and taller than a report shows. */
let large: Buffer;

/** Horizontal bands of colour with some grain, like a long page of product rows. */
async function pagePng(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const band = Math.floor(y / 90);
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const grain = (x * 7 + y * 13) % 23;
      raw[i] = (band * 53 + grain) % 256;
      raw[i + 1] = (band * 97 + x / 8) % 256;
      raw[i + 2] = x < 120 ? 40 : 230 - grain;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

const isJpeg = (b: Buffer) => b.subarray(0, 3).toString('hex') === 'ffd8ff';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'shrink-image-'));
  large = await pagePng(2560, 9000);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('screenshots shrunk with sharp', () => {
  it('scales a large PNG to the report width, cuts it at the height and encodes it as JPEG', async () => {
    const jpeg = await shrinkImage(large);
    expect(jpeg && isJpeg(jpeg)).toBe(true);
    const meta = await sharp(jpeg!).metadata();
    expect({ width: meta.width, height: meta.height, format: meta.format }).toEqual({ width: SHOT_MAX_WIDTH, height: SHOT_MAX_HEIGHT, format: 'jpeg' });
    expect(jpeg!.length).toBeLessThan(large.length / 4);
    // The top of the page is kept: its first band's colour, scaled.
    const { data } = await sharp(jpeg!).extract({ left: 400, top: 5, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    const { data: want } = await sharp(large).extract({ left: 1280, top: 16, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    for (let c = 0; c < 3; c++) expect(Math.abs(data[c]! - want[c]!)).toBeLessThan(40);

    const thumb = await sharp((await shrinkImage(large, { maxWidth: 520, maxHeight: 900 }))!).metadata();
    expect([thumb.width, thumb.height]).toEqual([520, 900]);
  });

  it('never enlarges a small screenshot, puts transparency on white, and leaves what is not a PNG', async () => {
    const small = await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const out = (await shrinkImage(small))!;
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([300, 200]);
    expect(Math.min(...data.subarray(0, 30))).toBeGreaterThan(245);
    expect(await shrinkImage(Buffer.from('not an image at all, but long enough to have a header'))).toBeNull();
    expect(await shrinkImage(out)).toBeNull();
  });

  it('a PNG header over broken data rejects, and the report names the file instead of failing', async () => {
    const broken = Buffer.concat([large.subarray(0, 64), Buffer.alloc(200_000, 7)]);
    await expect(shrinkImage(broken)).rejects.toThrow();
    const runDir = path.join(dir, 'broken');
    await mkdir(path.join(runDir, 'shots'), { recursive: true });
    await writeFile(path.join(runDir, 'shots', 'broken.png'), broken);
    const report = { ...browserSample(), artifacts: [{ path: 'shots/broken.png', kind: 'screenshot' as const, contentType: 'image/png' }] };
    const written = await writeReports(report, { runDir, outDir: runDir });
    expect(await readFile(written.html!, 'utf8')).toContain('shots / broken.png: in the zip report');
  });

  it('writes json, html, xml and zip with no browser, the failure screenshot inline as a JPEG within the limits', async () => {
    const launch = vi.spyOn(chromium, 'launch');
    const runDir = path.join(dir, 'run');
    await mkdir(path.join(runDir, 'attempt-1', path.dirname(SHOT)), { recursive: true });
    await writeFile(path.join(runDir, 'attempt-1', SHOT), large);
    const outDir = path.join(runDir, 'reports');
    await mkdir(outDir);
    // The runner names the screenshot inside its attempt folder; the server prefixes artifacts with it.
    const report = { ...browserSample(), artifacts: [{ path: `attempt-1/${SHOT}`, kind: 'screenshot' as const, contentType: 'image/png' }] };
    const written = await writeReports(report, { runDir, outDir });
    expect(launch).not.toHaveBeenCalled();
    expect(Object.keys(written)).toEqual(['json', 'html', 'xml', 'zip']);
    const html = await readFile(written.html!, 'utf8');
    const b64 = /<img class="shot" src="data:image\/jpeg;base64,([A-Za-z0-9+/=]+)"/.exec(html)?.[1];
    expect(b64).toBeDefined();
    expect(b64!.length).toBeLessThanOrEqual(MAX_TOTAL_BYTES);
    const meta = await sharp(Buffer.from(b64!, 'base64')).metadata();
    expect(meta.width).toBeLessThanOrEqual(SHOT_MAX_WIDTH);
    expect(meta.height).toBeLessThanOrEqual(SHOT_MAX_HEIGHT);
    expect(html).not.toContain('Screenshots (');
    // The pdf is printed on its first download, so the zip written now holds none.
    expect((await readFile(written.zip!)).toString('latin1')).not.toContain('report.pdf');
    await expectStyledUnderReportCsp(html);
  });
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
