/**
 * One Chromium for a batch of reports: prints the pdf and shrinks screenshots to JPEG. Launched on first use
 * with the engine's container flags, JavaScript off and every network request refused (a report needs none).
 */
import { setPriority } from 'node:os';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { GUARDED_CHROMIUM_FLAGS } from '../lib/chromium.ts';
import { processTable } from '../sandbox/process-table.ts';
import { RUNNER_NICENESS } from '../sandbox/supervisor.ts';

const LAUNCH_TIMEOUT_MS = 30_000;
const RENDER_TIMEOUT_MS = 30_000;
/** One pdf from start to end, launch included: past it the pdf is given up (the browser is closed after the batch). */
export const PRINT_TIMEOUT_MS = 60_000;
/** Screenshots are shown at most this wide and tall (in CSS pixels) and stored as JPEG of this quality. */
export const SHOT_MAX_WIDTH = 800;
export const SHOT_MAX_HEIGHT = 1400;
const SHOT_JPEG_QUALITY = 60;

/**
 * Runs in the blank page: PNG (base64) in, JPEG (base64) out, scaled to fit the width and cut at the height.
 * Plain JavaScript in a string, so no compiler helper sneaks into what the page runs.
 */
const SHRINK_SOURCE = `async ({ b64, maxWidth, maxHeight, quality }) => {
  const bytes = Uint8Array.fromBase64 ? Uint8Array.fromBase64(b64) : Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const scale = Math.min(1, maxWidth / bitmap.width);
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.min(maxHeight, Math.round(bitmap.height * scale)));
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(bitmap, 0, 0, bitmap.width * scale, bitmap.height * scale);
  bitmap.close();
  const out = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: quality / 100 })).arrayBuffer());
  if (out.toBase64) return out.toBase64();
  let s = '';
  for (let i = 0; i < out.length; i += 0x8000) s += String.fromCharCode(...out.subarray(i, i + 0x8000));
  return btoa(s);
}`;

export interface ReportTools {
  /** PNG in, a smaller JPEG out (at most `box`, by default SHOT_MAX_*); null when the bytes are not a PNG. */
  shrinkImage(png: Buffer, box?: { maxWidth: number; maxHeight: number }): Promise<Buffer | null>;
  printPdf(html: string): Promise<Buffer>;
  close(): Promise<void>;
}

/** Width and height from a PNG's header, or null when it is not a PNG. */
export function pngSize(buf: Buffer): { width: number; height: number } | null {
  const signature = '89504e470d0a1a0a';
  if (buf.length < 24 || buf.subarray(0, 8).toString('hex') !== signature || buf.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  return width > 0 && height > 0 ? { width, height } : null;
}

/** The promise, or a rejection once `ms` have passed (page.pdf itself takes no timeout). */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/**
 * Reports are written in the process that finishes runs, which is the API's own in a single-process install: the
 * browser that prints them gets the runners' nice value, so the API is still scheduled first on a busy machine.
 * Every process the launch added under this one is lowered; the renderers Chromium starts later inherit it.
 */
function lowerNewChildren(before: ReadonlySet<number>): void {
  const table = processTable();
  const lowered = new Set(table.filter((p) => p.ppid === process.pid && !before.has(p.pid)).map((p) => p.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of table) {
      if (lowered.has(p.ppid) && !lowered.has(p.pid)) {
        lowered.add(p.pid);
        grew = true;
      }
    }
  }
  for (const pid of lowered) {
    try {
      setPriority(pid, RUNNER_NICENESS);
    } catch {
      // Gone already, or not ours to change: the report is still written.
    }
  }
}

const childrenOfThisProcess = () => new Set(processTable().filter((p) => p.ppid === process.pid).map((p) => p.pid));

export function openReportBrowser(chromiumPath: string): ReportTools {
  let launched: Promise<{ browser: Browser; context: BrowserContext; scripted: BrowserContext }> | null = null;
  let shrinkPage: Promise<Page> | null = null;
  const start = () =>
    (launched ??= (async () => {
      const before = childrenOfThisProcess();
      const browser = await chromium.launch({ executablePath: chromiumPath, args: GUARDED_CHROMIUM_FLAGS, timeout: LAUNCH_TIMEOUT_MS });
      lowerNewChildren(before);
      const context = await browser.newContext({ javaScriptEnabled: false, deviceScaleFactor: 1 });
      await context.route('**/*', (route) => route.abort());
      // Our own script on a blank page, never a report: decodes and re-encodes images with the browser's codecs.
      const scripted = await browser.newContext();
      await scripted.route('**/*', (route) => route.abort());
      return { browser, context, scripted };
    })());

  return {
    async shrinkImage(png, box = { maxWidth: SHOT_MAX_WIDTH, maxHeight: SHOT_MAX_HEIGHT }) {
      if (!pngSize(png)) return null;
      const page = await (shrinkPage ??= start().then(({ scripted }) => scripted.newPage()));
      const b64 = await page.evaluate(`(${SHRINK_SOURCE})(${JSON.stringify({ b64: png.toString('base64'), maxWidth: box.maxWidth, maxHeight: box.maxHeight, quality: SHOT_JPEG_QUALITY })})`);
      return typeof b64 === 'string' && b64 ? Buffer.from(b64, 'base64') : null;
    },
    printPdf(html) {
      return within(
        PRINT_TIMEOUT_MS,
        'printing the pdf',
        (async () => {
          const { context } = await start();
          const page = await context.newPage();
          try {
            await page.setContent(html, { timeout: RENDER_TIMEOUT_MS });
            return await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
          } finally {
            await page.close().catch(() => undefined);
          }
        })(),
      );
    },
    async close() {
      if (!launched) return;
      const { browser } = await launched.catch(() => ({ browser: null }));
      await browser?.close().catch(() => undefined);
    },
  };
}
