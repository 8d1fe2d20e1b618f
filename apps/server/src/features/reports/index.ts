// The reports feature's face: what other features may use of it. Everything else in this folder is its own.
export { pdfPrinterPath, printedPdf } from './report-pdf.ts';
export { runReportFormatsIn, runReportKey, runTestReportsKey, serveReport, storedReport } from './report-service.ts';
export type { ReaderTime, StoredReport } from './report-service.ts';
export { REPORT_VIEW_TTL_SECONDS } from './report-service.ts';
