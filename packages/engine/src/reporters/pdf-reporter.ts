import { promises as fs } from 'node:fs';
import path from 'node:path';
import { buildReportHtml } from './html-reporter.ts';
import type { Reporter } from './types.ts';

/**
 * The html report printed to A4 by Chromium, for readers who file reports as pdf. Printed from the html file
 * just written when there is one (the same bytes, screenshots already shrunk). Skipped without a browser, and
 * when printing fails (the other formats still stand; `onSkipped` hears why).
 */
export const pdfReporter: Reporter = {
  format: 'pdf',
  contentType: 'application/pdf',
  fileName: 'report.pdf',
  async write(report, dirs, tools) {
    if (!tools) return null;
    const written = await fs.readFile(path.join(dirs.outDir, 'report.html'), 'utf8').catch(() => null);
    const html = written ?? (await buildReportHtml(report, dirs, tools));
    const file = path.join(dirs.outDir, this.fileName);
    try {
      await fs.writeFile(file, await tools.printPdf(html));
    } catch (err) {
      dirs.onSkipped?.(this.format, err);
      return null;
    }
    return file;
  },
};
