import { promises as fs } from 'node:fs';
import path from 'node:path';
import { renderRunReportHtml } from './html/render-run-report.ts';
import type { RunSummaryReport } from './types.ts';

/** The run report's files in its folder, by format; the pdf is printed from the html on its first download. */
export const RUN_REPORT_FILES = { html: 'run-report.html', pdf: 'run-report.pdf' } as const;

/** Writes the run report as `run-report.html`; returns its path. */
export async function writeRunReport(run: RunSummaryReport, opts: { outDir: string }): Promise<{ html: string }> {
  const html = path.join(opts.outDir, RUN_REPORT_FILES.html);
  await fs.writeFile(html, renderRunReportHtml(run));
  return { html };
}
