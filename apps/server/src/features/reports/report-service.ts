import { text } from 'node:stream/consumers';
import { paths, RUN_REPORT_GROUP, RUN_REPORT_NAME, type ReportGroups } from '@fullstop/contracts';
import { localizeReportTimes, reportFiles, RUN_REPORT_FILES, type ReportFileFormat } from '@fullstop/engine';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { ArtifactStore } from '../../lib/artifact-store/index.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { findClient } from '../accounts/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { REPORTS_FOLDER, runKey, runTestKey } from '../../lib/run-paths.ts';
import { MAX_HTML_BYTES, type PdfToPrint, pdfPrinterPath, printedPdf } from './report-pdf.ts';
import { latestFinishedRunAlls, latestReportOf, latestReports } from './report-repository.ts';

/**
 * A report holds strings from the client's own site (titles, evidence, error texts). Served with this policy it
 * lives in an opaque origin (sandbox without allow-same-origin): no script runs, nothing can read the portal's
 * storage or cookies, nothing loads from anywhere. The reports need only inline styles and data: images; a link
 * inside one (its run in the portal) navigates the tab itself, which a sandboxed top-level page may do.
 */
/** A view link opens one report once the user clicked; a minute is plenty. */
export const REPORT_VIEW_TTL_SECONDS = 60;

export const REPORT_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** How many of the newest finished "Run all" runs are looked at for a run report (a newer one may have none yet). */
const RUN_REPORT_LOOKBACK = 5;

/** The formats a browser shows; the others (zip, JUnit xml, pdf) are downloads with a meaningful name. */
const SHOWN_FORMATS: ReadonlySet<ReportFileFormat> = new Set(['html', 'json']);

/** One stored report file and what names it: what `serveReport` needs, wherever the file came from. */
export interface StoredReport {
  /** Where the file is kept, and its key there. */
  store: ArtifactStore;
  key: string;
  size: number;
  format: ReportFileFormat;
  contentType: string;
  clientName: string;
  /** The test's name, or RUN_REPORT_NAME for the run report. */
  reportName: string;
  /** When the report was written: its date goes into the file name. */
  writtenAt: Date;
  /** The run the report comes from: trace links in the html lead to it in the portal. */
  runId: string | null;
  /** A pdf not printed yet: printed from its html by this download, and kept for the next (report-pdf.ts). */
  print?: PdfToPrint;
}

/** The reader's locale and time zone for a report shown in a browser (already checked: see resolveReaderTime). */
export interface ReaderTime {
  locale: string;
  timeZone: string;
}

function reporterOf(format: string) {
  const reporter = reportFiles.find((r) => r.format === format.toLowerCase());
  if (!reporter) throw new NotFoundError(`Unknown report format "${format}": use json, html, pdf, zip or xml`);
  return reporter;
}

/** The run report's folder inside a run's: where Run all writes run-report.<format> (`runs/<client>/<run>/reports`). */
export const runReportKey = (clientId: string, runId: string) => `${runKey(clientId, runId)}/${REPORTS_FOLDER}`;
/** A run test's reports: `runs/<client>/<run>/<runTest>/reports`. */
export const runTestReportsKey = (clientId: string, runId: string, runTestId: string) => `${runTestKey(clientId, runId, runTestId)}/${REPORTS_FOLDER}`;

/**
 * The formats of the run report under `prefix` (none while a run covered one test or is still writing it): the
 * html once written, and the pdf when stored or, with `pdf` (pdfs offered), printable from that html.
 */
export async function runReportFormatsIn(store: ArtifactStore, prefix: string, pdf: boolean): Promise<(keyof typeof RUN_REPORT_FILES)[]> {
  const stored = async (f: keyof typeof RUN_REPORT_FILES) => !!(await store.stat(`${prefix}/${RUN_REPORT_FILES[f]}`).catch(() => null));
  const [html, pdfStored] = await Promise.all([stored('html'), stored('pdf')]);
  if (!html) return pdfStored ? ['pdf'] : [];
  return pdf || pdfStored ? ['html', 'pdf'] : ['html'];
}

async function runReportsOf(db: Db, store: ArtifactStore, clientId: string, pdf: boolean) {
  for (const run of await latestFinishedRunAlls(db, clientId, RUN_REPORT_LOOKBACK)) {
    const prefix = runReportKey(clientId, run.id);
    const formats = await runReportFormatsIn(store, prefix, pdf);
    if (formats.includes('html')) return { runId: run.id, prefix, formats, finishedAt: run.finishedAt ?? new Date() };
  }
  return null;
}

/**
 * GET /report/fetch/all: the latest reports of each test, keyed by group then test name, each with its formats
 * and when they were written, and the report of the latest finished "Run all" under RUN_REPORT_GROUP. Null when
 * the client has none (the route answers 404).
 */
export async function listReports(deps: Pick<EngineDeps, 'db' | 'artifacts' | 'config'>, clientId: string): Promise<ReportGroups | null> {
  const [rows, runReport] = await Promise.all([latestReports(deps.db, clientId), runReportsOf(deps.db, deps.artifacts, clientId, deps.config.reportPdf)]);
  if (rows.length === 0 && !runReport) return null;
  const groups: ReportGroups = {};
  const add = (group: string, name: string, formats: string[], at: Date | null) => {
    const lastUpdated = (at ?? new Date()).toISOString();
    (groups[group] ??= {})[name] = { lastUpdated, formats: formats.map((format) => ({ format, lastUpdated })) };
  };
  if (runReport) add(RUN_REPORT_GROUP, RUN_REPORT_NAME, runReport.formats, runReport.finishedAt);
  for (const r of rows) add(r.group, r.testName, r.formats ?? [], r.finishedAt);
  return groups;
}

/**
 * One report file in a folder of reports, checked to be there in that format. For a test's reports (`formats`
 * as stored with the run test) and for a run report (`runReport`: run-report.html / .pdf). A pdf not printed yet
 * is there when its html is and `printPdfWith` names the Chromium to print it with. Every caller has already
 * checked the folder belongs to the caller's client.
 */
export async function storedReport(input: {
  store: ArtifactStore;
  /** The reports' folder in the store. */
  prefix: string;
  format: string;
  formats: readonly string[] | null;
  clientName: string;
  reportName: string;
  writtenAt: Date;
  runId: string | null;
  runReport?: boolean;
  /** pdfPrinterPath(config): undefined when pdfs are not offered. */
  printPdfWith: string | undefined;
}): Promise<StoredReport> {
  const reporter = reporterOf(input.format);
  const { reportName } = input;
  const fileName = input.runReport ? RUN_REPORT_FILES[reporter.format as keyof typeof RUN_REPORT_FILES] : reporter.fileName;
  if (!fileName || !input.formats?.includes(reporter.format)) throw new NotFoundError(`Report "${reportName}" has no ${reporter.format} format`);
  const key = `${input.prefix}/${fileName}`;
  const report = { store: input.store, key, size: 0, format: reporter.format, contentType: reporter.contentType, clientName: input.clientName, reportName, writtenAt: input.writtenAt, runId: input.runId };
  const found = await input.store.stat(key);
  if (found) return { ...report, size: found.size };
  if (reporter.format === 'pdf' && input.printPdfWith) {
    const htmlKey = `${input.prefix}/${input.runReport ? RUN_REPORT_FILES.html : reporterOf('html').fileName}`;
    if (await input.store.stat(htmlKey)) return { ...report, print: { store: input.store, key, htmlKey, chromiumPath: input.printPdfWith } };
  }
  throw new NotFoundError(`Report "${reportName}" in ${reporter.format} is no longer stored`);
}

/** The latest report of this name (a test's, or the run report) in one format, only ever of this client. */
export async function findLatestReport(deps: Pick<EngineDeps, 'db' | 'artifacts' | 'config'>, clientId: string, reportName: string, format: string): Promise<StoredReport> {
  reporterOf(format);
  const { db, artifacts: store } = deps;
  const client = await findClient(db, clientId);
  const clientName = client?.name ?? '';
  const printPdfWith = pdfPrinterPath(deps.config);
  if (reportName === RUN_REPORT_NAME) {
    const run = await runReportsOf(db, store, clientId, deps.config.reportPdf);
    if (!run) throw new NotFoundError(`Report "${reportName}" not found`);
    return storedReport({ store, prefix: run.prefix, format, formats: run.formats, clientName, reportName, writtenAt: run.finishedAt, runId: run.runId, runReport: true, printPdfWith });
  }
  const row = await latestReportOf(db, clientId, reportName);
  if (!row) throw new NotFoundError(`Report "${reportName}" not found`);
  return storedReport({ store, prefix: runTestReportsKey(clientId, row.runId, row.runTestId), format, formats: row.formats, clientName, reportName, writtenAt: row.finishedAt ?? new Date(), runId: row.runId, printPdfWith });
}

/** Lower case, letters and digits joined by single hyphens: `Fullstop QA` -> `fullstop-qa`. */
function slug(value: string, ascii: boolean): string {
  const base = ascii ? value.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : value.normalize('NFC');
  const pattern = ascii ? /[^a-z0-9]+/g : /[^\p{L}\p{N}]+/gu;
  return base.toLowerCase().replace(pattern, '-').replace(/^-+|-+$/g, '').slice(0, 80).replace(/-+$/, '');
}

/** `<client>-<test>-<yyyy-mm-dd>.<ext>`, e.g. `fullstop-marketing-pages-2026-11-22.zip`; ascii for old clients. */
export function reportFileName(report: Pick<StoredReport, 'clientName' | 'reportName' | 'writtenAt' | 'format'>, ascii = true): string {
  const date = report.writtenAt.toISOString().slice(0, 10);
  const parts = [slug(report.clientName, ascii), slug(report.reportName, ascii) || 'report', date].filter(Boolean);
  return `${parts.join('-')}.${report.format}`;
}

/** attachment or inline, with the name in plain ASCII and in UTF-8 (RFC 6266) for names with accents. */
export function contentDisposition(kind: 'inline' | 'attachment', report: Pick<StoredReport, 'clientName' | 'reportName' | 'writtenAt' | 'format'>): string {
  const ascii = reportFileName(report, true);
  const utf8 = encodeURIComponent(reportFileName(report, false)).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

const TRACE_PLACEHOLDER = /<span class="trace-link" data-trace="[^"<>]*">([^<]*)<\/span>/g;

/** The html as the reader sees it: times in their locale and zone, trace placeholders as links to the run. */
export function htmlForReader(html: string, runId: string | null, reader: ReaderTime | undefined): string {
  const localized = reader ? localizeReportTimes(html, reader) : html;
  if (!runId) return localized;
  const href = `${paths.dashboard}/history/${encodeURIComponent(runId)}`;
  return localized.replace(TRACE_PLACEHOLDER, (_, label: string) => `<a class="trace-link" href="${href}">${label}</a>`);
}

/**
 * Sends one stored report: the only place that names, localizes and heads a report file. `show` is true on the
 * view route (a browser tab): html and json show inline, zip, JUnit xml and pdf download under a meaningful
 * name. The fetch route (read by code: the portal, a CI script) answers the same way. `reader` rewrites an html
 * report's times into the reader's locale and time zone. Every report goes out under REPORT_CSP.
 */
export async function serveReport(request: FastifyRequest, reply: FastifyReply, report: StoredReport, reader?: ReaderTime) {
  const shown = SHOWN_FORMATS.has(report.format);
  let body: Buffer | NodeJS.ReadableStream;
  if (report.print) {
    // Not printed yet: printed now and kept for the next download; a print that fails answers 503, stores nothing.
    body = await printedPdf(report.print, request.log);
    reply.header('content-length', String(body.length));
  } else {
    body = await storedBody(request, reply, report, reader);
  }
  const contentType = report.format === 'json' ? 'application/json; charset=utf-8' : report.contentType;
  return reply
    .header('content-type', contentType)
    .header('content-disposition', contentDisposition(shown ? 'inline' : 'attachment', report))
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', REPORT_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-resource-policy', 'same-origin')
    .send(body);
}

/** The stored file: an html rewritten for its reader, anything else streamed as it is. */
async function storedBody(request: FastifyRequest, reply: FastifyReply, report: StoredReport, reader?: ReaderTime): Promise<Buffer | NodeJS.ReadableStream> {
  const gone = () => new NotFoundError(`Report "${report.reportName}" in ${report.format} is no longer stored`);
  const stored = await report.store.get(report.key).catch((err: unknown) => {
    request.log.warn({ err }, 'reading a report file failed');
    throw gone();
  });
  if (!stored) throw gone();
  // It may fail to read from the moment it was found; fastify ends the answer, this logs why.
  stored.body.on('error', (err) => request.log.warn({ err }, 'reading a report file failed'));
  if (report.format === 'html') {
    // Small (screenshots shrunk, at most ~2 MB): read whole to rewrite its times and links.
    if (stored.size > MAX_HTML_BYTES) {
      stored.body.destroy();
      throw gone();
    }
    return Buffer.from(htmlForReader(await text(stored.body), report.runId, reader));
  }
  // A zip may hold traces and videos: streamed from the store, never whole in memory.
  reply.header('content-length', String(stored.size));
  return stored.body;
}
