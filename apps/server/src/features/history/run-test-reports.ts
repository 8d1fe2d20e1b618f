import { RUN_REPORT_NAME } from '@fullstop/contracts';
import { resolveReaderTime } from '@fullstop/engine';
import type { FastifyBaseLogger } from 'fastify';
import { NotFoundError } from '../../lib/errors.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { findClient } from '../accounts/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { pdfPrinterPath, printedPdf } from '../reports/index.ts';
import { type ReaderTime, runReportFormatsIn, runReportKey, runTestReportsKey, type StoredReport, storedReport } from '../reports/index.ts';
import { findClientRun, findClientRunTest } from '../runs/index.ts';
import { REPORT_VIEW_TTL_SECONDS } from '../reports/index.ts';
import { signUrlToken, verifyUrlToken } from '../../lib/url-token.ts';

// A run's own report of one test, or of the whole run (the Reports page shows only the latest of each): opened
// through a short-lived signed view link, like the Reports page's, and served by the same function, in the
// reader's locale and zone.

const VIEW_PURPOSE = 'fullstop run test report view token v1';

export interface RunTestReportRef {
  runId: string;
  /** Absent: the run report, which a run of every test writes (Run all). */
  runTestId?: string;
  format: string;
}

/** The run's report of all its tests, when the run is this client's and wrote that format; else 404. */
async function openWholeRunReport(deps: Pick<EngineDeps, 'db' | 'artifacts' | 'config'>, clientId: string, ref: RunTestReportRef): Promise<StoredReport> {
  const run = await findClientRun(deps.db, clientId, ref.runId);
  if (!run) throw new NotFoundError('Run not found');
  const prefix = runReportKey(clientId, run.id);
  const client = await findClient(deps.db, clientId);
  return storedReport({
    store: deps.artifacts,
    prefix,
    format: ref.format,
    formats: await runReportFormatsIn(deps.artifacts, prefix, deps.config.reportPdf),
    clientName: client?.name ?? '',
    reportName: RUN_REPORT_NAME,
    writtenAt: run.finishedAt ?? run.createdAt,
    runId: run.id,
    runReport: true,
    printPdfWith: pdfPrinterPath(deps.config),
  });
}

/** That report, when the run test (or run) is this client's, in that run, and wrote that format; else 404. */
export async function openRunTestReport(deps: Pick<EngineDeps, 'db' | 'artifacts' | 'config'>, clientId: string, ref: RunTestReportRef): Promise<StoredReport> {
  if (ref.runTestId === undefined) return openWholeRunReport(deps, clientId, ref);
  const rt = await findClientRunTest(deps.db, clientId, ref.runId, ref.runTestId);
  if (!rt?.reportFormats) throw new NotFoundError('Run test not found');
  const client = await findClient(deps.db, clientId);
  return storedReport({
    store: deps.artifacts,
    prefix: runTestReportsKey(clientId, rt.runId, rt.id),
    format: ref.format,
    formats: rt.reportFormats,
    clientName: client?.name ?? '',
    reportName: rt.testName,
    writtenAt: rt.finishedAt ?? new Date(),
    runId: rt.runId,
    printPdfWith: pdfPrinterPath(deps.config),
  });
}

/** A view address for that report, after checking it exists; the reader's locale and zone travel in the token. */
export async function runTestReportLink(
  deps: Pick<EngineDeps, 'db' | 'artifacts' | 'config'>,
  keys: ServerKeys,
  clientId: string,
  ref: RunTestReportRef,
  readerQuery: { locale?: string | undefined; timeZone?: string | undefined },
  log: FastifyBaseLogger,
) {
  const format = ref.format.toLowerCase();
  const report = await openRunTestReport(deps, clientId, { ...ref, format });
  // A pdf not printed yet is printed before its link is given, so a failed print is a 503 the portal can show.
  if (report.print) await printedPdf(report.print, log);
  const reader = resolveReaderTime(readerQuery);
  const token = signUrlToken(
    keys,
    VIEW_PURPOSE,
    { c: clientId, r: ref.runId, t: ref.runTestId ?? '', f: format, l: reader.locale, z: reader.timeZone },
    REPORT_VIEW_TTL_SECONDS,
  );
  const of = ref.runTestId === undefined ? ref.runId : `${ref.runId}/tests/${ref.runTestId}`;
  return {
    url: `/test/history/${of}/report/${encodeURIComponent(format)}/view?token=${encodeURIComponent(token)}`,
    expiresIn: REPORT_VIEW_TTL_SECONDS,
  };
}

/** The client and reader a view token opens this report for; null when it is not a valid token for exactly this report. */
export function viewTokenOf(keys: ServerKeys, token: string, ref: RunTestReportRef): { clientId: string; reader: ReaderTime } | null {
  const claims = verifyUrlToken(keys, VIEW_PURPOSE, token);
  const ok = claims && typeof claims.c === 'string' && claims.r === ref.runId && claims.t === (ref.runTestId ?? '') && claims.f === ref.format.toLowerCase();
  if (!ok) return null;
  return { clientId: claims.c as string, reader: resolveReaderTime({ locale: claims.l as string | undefined, timeZone: claims.z as string | undefined }) };
}
