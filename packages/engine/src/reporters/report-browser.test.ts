import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHROMIUM_PATH } from '../lib/chromium.ts';
import { browserSample, runSample } from './fixtures.ts';
import { renderReportHtml } from './html/render-report.ts';
import { openReportBrowser, ReportBrowserTimeoutError } from './report-browser.ts';
import { writeRunReport } from './run-report-writer.ts';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'report-browser-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;

/** The pids of this process's descendants whose command is Chromium's (or the stand-in's). */
async function chromiumsUnderUs(name = 'chrom'): Promise<number[]> {
  const parents = new Map<number, number>();
  const comms = new Map<number, string>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    comms.set(Number(entry), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
  }
  const under = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === process.pid) return true;
    return false;
  };
  return [...comms].filter(([pid, comm]) => comm.includes(name) && under(pid)).map(([pid]) => pid);
}

describe('report browser', () => {
  it('prints the html report and the run report to A4 pdfs with one browser, and closes it once idle', async () => {
    const printer = openReportBrowser(DEFAULT_CHROMIUM_PATH, { idleMs: 300 });
    try {
      expect(printer.isOpen()).toBe(false);
      const [pdf, again] = await Promise.all([printer.printPdf(renderReportHtml(browserSample())), printer.printPdf(renderReportHtml(browserSample()))]);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pageCount(pdf)).toBeGreaterThanOrEqual(1);
      expect(pdf.toString('latin1')).toMatch(/\/MediaBox\s*\[\s*0 0 59[45]\.\d+ 841\.\d+\s*\]/);
      expect(pageCount(again)).toBe(pageCount(pdf));
      const { html } = await writeRunReport(runSample(), { outDir: dir });
      const run = await printer.printPdf(await readFile(html, 'utf8'));
      expect(pageCount(run)).toBeGreaterThan(1);
      expect(printer.isOpen()).toBe(true);
      expect((await chromiumsUnderUs()).length).toBeGreaterThan(0);
      for (let i = 0; i < 50 && printer.isOpen(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(printer.isOpen()).toBe(false);
      for (let i = 0; i < 50 && (await chromiumsUnderUs()).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await chromiumsUnderUs()).toEqual([]);
      // The next print launches a new one.
      expect((await printer.printPdf('<p>again</p>')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    } finally {
      await printer.close();
    }
    expect(printer.isOpen()).toBe(false);
  });

  it('rejects when no Chromium is installed, and tries again on the next print', async () => {
    const printer = openReportBrowser(path.join(dir, 'no-chromium-here'));
    await expect(printer.printPdf('<p>x</p>')).rejects.toThrow(/no-chromium-here|executable/i);
    expect(printer.isOpen()).toBe(false);
    await expect(printer.printPdf('<p>x</p>')).rejects.toThrow();
    await printer.close();
  });

  it('gives up a print that takes too long and keeps no browser behind', async () => {
    // A "browser" that never answers: the launch hangs until the print's time is up.
    const hanging = path.join(dir, 'hanging-chromium');
    await writeFile(hanging, '#!/bin/sh\nexec sleep 60\n');
    await chmod(hanging, 0o755);
    const printer = openReportBrowser(hanging, { printTimeoutMs: 1_500 });
    const started = Date.now();
    await expect(printer.printPdf('<p>x</p>')).rejects.toBeInstanceOf(ReportBrowserTimeoutError);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(printer.isOpen()).toBe(false);
    // Closing waits until the hung launch is torn down (playwright gives it up after its own grace time).
    await printer.close();
    expect(await chromiumsUnderUs('sleep')).toEqual([]);
  }, 90_000);
});
