import { resolveReaderTime } from '@fullstop/engine';
import { NotFoundError } from '../../../lib/errors.ts';
import type { ServerKeys } from '../../../lib/server-keys.ts';
import { findClient } from '../../accounts/repository.ts';
import type { EngineDeps } from '../deps.ts';
import { type ReaderTime, type StoredReport, storedReport } from '../reports/report-service.ts';
import { findClientRunTest } from '../runs/run-repository.ts';
import { REPORT_VIEW_TTL_SECONDS } from '../routes/report-routes.ts';
import { signUrlToken, verifyUrlToken } from '../routes/events-token.ts';

// A run's own report of one test (the Reports page shows only each test's latest): opened through a short-lived
// signed view link, like the Reports page's, and served by the same function, in the reader's locale and zone.

const VIEW_PURPOSE = 'fullstop run test report view token v1';

export interface RunTestReportRef {
  runId: string;
  runTestId: string;
  format: string;
}

/** That report, when the run test is this client's, in that run, and wrote that format; else 404. */
export async function openRunTestReport(deps: Pick<EngineDeps, 'db'>, clientId: string, ref: RunTestReportRef): Promise<StoredReport> {
  const rt = await findClientRunTest(deps.db, clientId, ref.runId, ref.runTestId);
  if (!rt?.reportDir) throw new NotFoundError('Run test not found');
  const client = await findClient(deps.db, clientId);
  return storedReport({
    dir: rt.reportDir,
    format: ref.format,
    formats: rt.reportFormats,
    clientName: client?.name ?? '',
    reportName: rt.testName,
    writtenAt: rt.finishedAt ?? new Date(),
    runId: rt.runId,
  });
}

/** A view address for that report, after checking it exists; the reader's locale and zone travel in the token. */
export async function runTestReportLink(
  deps: Pick<EngineDeps, 'db'>,
  keys: ServerKeys,
  clientId: string,
  ref: RunTestReportRef,
  readerQuery: { locale?: string | undefined; timeZone?: string | undefined } = {},
) {
  const format = ref.format.toLowerCase();
  await openRunTestReport(deps, clientId, { ...ref, format });
  const reader = resolveReaderTime(readerQuery);
  const token = signUrlToken(
    keys,
    VIEW_PURPOSE,
    { c: clientId, r: ref.runId, t: ref.runTestId, f: format, l: reader.locale, z: reader.timeZone },
    REPORT_VIEW_TTL_SECONDS,
  );
  return {
    url: `/test/history/${ref.runId}/tests/${ref.runTestId}/report/${encodeURIComponent(format)}/view?token=${encodeURIComponent(token)}`,
    expiresIn: REPORT_VIEW_TTL_SECONDS,
  };
}

/** The client and reader a view token opens this report for; null when it is not a valid token for exactly this report. */
export function viewTokenOf(keys: ServerKeys, token: string, ref: RunTestReportRef): { clientId: string; reader: ReaderTime } | null {
  const claims = verifyUrlToken(keys, VIEW_PURPOSE, token);
  const ok = claims && typeof claims.c === 'string' && claims.r === ref.runId && claims.t === ref.runTestId && claims.f === ref.format.toLowerCase();
  if (!ok) return null;
  return { clientId: claims.c as string, reader: resolveReaderTime({ locale: claims.l as string | undefined, timeZone: claims.z as string | undefined }) };
}
