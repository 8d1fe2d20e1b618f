import { promises as fs } from 'node:fs';
import path from 'node:path';
import { renderRunReportHtml } from './html/render-run-report.ts';
import { openReportBrowser } from './report-browser.ts';
import type { ReportFileFormat, RunSummaryReport } from './types.ts';

/** The run report's files in its folder, by format. */
export const RUN_REPORT_FILES = { html: 'run-report.html', pdf: 'run-report.pdf' } as const;

/**
 * Writes the run report as `run-report.html` (and `run-report.pdf` with a browser); returns format -> path.
 * A pdf that cannot be printed is left out (`onSkipped` hears why); the html still stands.
 */
export async function writeRunReport(
  run: RunSummaryReport,
  opts: { outDir: string; chromiumPath?: string | undefined; onSkipped?: (format: ReportFileFormat, cause: unknown) => void },
): Promise<{ html: string; pdf?: string }> {
  const html = renderRunReportHtml(run);
  const htmlFile = path.join(opts.outDir, RUN_REPORT_FILES.html);
  // The html last: once it is there the run report is whole (the server lists it from then on).
  const pdf = opts.chromiumPath ? await printRunReport(html, opts.chromiumPath, path.join(opts.outDir, RUN_REPORT_FILES.pdf), opts.onSkipped) : null;
  await fs.writeFile(htmlFile, html);
  return pdf ? { html: htmlFile, pdf } : { html: htmlFile };
}

async function printRunReport(html: string, chromiumPath: string, file: string, onSkipped?: (format: ReportFileFormat, cause: unknown) => void): Promise<string | null> {
  const tools = openReportBrowser(chromiumPath);
  try {
    await fs.writeFile(file, await tools.printPdf(html));
    return file;
  } catch (err) {
    onSkipped?.('pdf', err);
    return null;
  } finally {
    await tools.close();
  }
}
