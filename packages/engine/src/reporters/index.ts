import { htmlReporter } from './html-reporter.ts';
import { jsonReporter } from './json-reporter.ts';
import { junitReporter } from './junit-reporter.ts';
import { pdfReporter } from './pdf-reporter.ts';
import { openReportBrowser } from './report-browser.ts';
import type { ReportDirs, Reporter, RunReport } from './types.ts';
import { zipReporter } from './zip-reporter.ts';

export * from './types.ts';
export { escapeHtml } from './html/escape.ts';
export { renderReportHtml } from './html/render-report.ts';
export { renderRunReportHtml } from './html/render-run-report.ts';
export { localizeReportTimes, resolveReaderTime } from './report-time.ts';
export { openReportBrowser, type ReportTools } from './report-browser.ts';
export { RUN_REPORT_FILES, writeRunReport } from './run-report-writer.ts';
export { toJunit } from './junit-reporter.ts';

/** Every reporter, in writing order: the pdf after the html it prints, the zip last so it can hold the others. */
export const reporters: readonly Reporter[] = [jsonReporter, htmlReporter, pdfReporter, junitReporter, zipReporter];

/**
 * Writes every report that applies to the run's kind; returns format -> absolute file path. With `chromiumPath`
 * one browser shrinks the screenshots and prints the pdf, and is closed before this returns.
 */
export async function writeReports(report: RunReport, dirs: ReportDirs): Promise<Partial<Record<Reporter['format'], string>>> {
  const written: Partial<Record<Reporter['format'], string>> = {};
  const tools = dirs.chromiumPath ? openReportBrowser(dirs.chromiumPath) : undefined;
  try {
    for (const r of reporters) {
      if (r.appliesTo && !r.appliesTo(report.kind)) continue;
      const file = await r.write(report, dirs, tools);
      if (file) written[r.format] = file;
    }
  } finally {
    await tools?.close();
  }
  return written;
}
