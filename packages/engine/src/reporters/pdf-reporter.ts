import type { ReportFile } from './types.ts';

/**
 * The html report printed to A4 by Chromium, for readers who file reports as pdf. Not written when the test
 * ends: the server prints it from the stored html on its first download, with one report browser per process
 * (report-browser.ts), and keeps it beside the html under this name.
 */
export const pdfReport: ReportFile = {
  format: 'pdf',
  contentType: 'application/pdf',
  fileName: 'report.pdf',
};
