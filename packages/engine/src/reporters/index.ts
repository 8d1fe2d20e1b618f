import { htmlReporter } from './html-reporter.ts';
import { jsonReporter } from './json-reporter.ts';
import { junitReporter } from './junit-reporter.ts';
import { pdfReport } from './pdf-reporter.ts';
import type { ReportDirs, ReportFile, ReportFileFormat, Reporter, RunReport } from './types.ts';
import { zipReporter } from './zip-reporter.ts';

export * from './types.ts';
export { escapeHtml } from './html/escape.ts';
export { renderReportHtml } from './html/render-report.ts';
export { renderRunReportHtml } from './html/render-run-report.ts';
export { localizeReportTimes, resolveReaderTime } from './report-time.ts';
export { openReportBrowser, PRINT_TIMEOUT_MS, REPORT_BROWSER_IDLE_MS, type ReportPrinter } from './report-browser.ts';
export { SHOT_MAX_HEIGHT, SHOT_MAX_WIDTH, shrinkImage } from './shrink-image.ts';
export { RUN_REPORT_FILES, writeRunReport } from './run-report-writer.ts';
export { toJunit } from './junit-reporter.ts';

/** The reporters a finished test writes, in writing order: the zip last so it can hold the others. */
export const reporters: readonly Reporter[] = [jsonReporter, htmlReporter, junitReporter, zipReporter];

/** Every format a report is offered in, in listing order; the pdf is printed from the html on its first download. */
export const reportFiles: readonly ReportFile[] = [jsonReporter, htmlReporter, pdfReport, junitReporter, zipReporter];

/**
 * Writes every report that applies to the run's kind; returns format -> absolute file path. No browser: the
 * screenshots are shrunk with sharp, and the pdf waits for its first download (see `offeredFormats`).
 */
export async function writeReports(report: RunReport, dirs: ReportDirs): Promise<Partial<Record<Reporter['format'], string>>> {
  const written: Partial<Record<Reporter['format'], string>> = {};
  for (const r of reporters) {
    if (r.appliesTo && !r.appliesTo(report.kind)) continue;
    const file = await r.write(report, dirs);
    if (file) written[r.format] = file;
  }
  return written;
}

/**
 * The formats a report is listed in, in `reportFiles` order: those written, and the pdf when pdfs are offered
 * and there is an html to print it from.
 */
export function offeredFormats(written: Partial<Record<ReportFileFormat, string>>, opts: { pdf: boolean }): ReportFileFormat[] {
  return reportFiles.map((f) => f.format).filter((f) => written[f] !== undefined || (f === 'pdf' && opts.pdf && written.html !== undefined));
}
