/**
 * The baseline: how one attempt's reports were written before decision 0066, kept here only. A Chromium was
 * launched for each attempt, printed the pdf from the html just written and shrank the screenshots in a page's
 * canvas; then it was closed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openReportBrowser, type ReportDirs, type RunReport, writeReports } from '@fullstop/engine';
import { GUARDED_CHROMIUM_FLAGS } from '@fullstop/engine/chromium';
import { chromium } from 'playwright-core';

/** The old writer for one attempt: the reports of today, plus a browser launched to print the pdf. */
export async function writeReportsOldWay(report: RunReport, dirs: ReportDirs, chromiumPath: string): Promise<void> {
  const written = await writeReports(report, dirs);
  const printer = openReportBrowser(chromiumPath);
  try {
    await writeFile(path.join(dirs.outDir, 'report.pdf'), await printer.printPdf(await readFile(written.html!, 'utf8')));
  } finally {
    await printer.close();
  }
}

/** The old in-page shrinker (report-browser.ts before 0066): PNG in, JPEG out, through createImageBitmap and a canvas. */
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

/** Shrinks every PNG the old way, four at a time, in one browser launched for it (launch included). */
export async function shrinkOldWay(pngs: Buffer[], chromiumPath: string, box = { maxWidth: 800, maxHeight: 1400 }): Promise<number> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: GUARDED_CHROMIUM_FLAGS });
  let bytes = 0;
  try {
    const context = await browser.newContext();
    await context.route('**/*', (route) => route.abort());
    const page = await context.newPage();
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < pngs.length; i = next++) {
        const b64 = await page.evaluate(`(${SHRINK_SOURCE})(${JSON.stringify({ b64: pngs[i]!.toString('base64'), ...box, quality: 60 })})`);
        bytes += Buffer.from(String(b64), 'base64').length;
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
  } finally {
    await browser.close();
  }
  return bytes;
}
