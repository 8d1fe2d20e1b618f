import {
  apiPaths,
  evidenceLinkResponse,
  evidenceListResponse,
  reportLinkResponse,
  runCancelResponse,
  runHistoryDetail,
  runHistoryPage,
  testGroups,
  type EvidenceListResponse,
  type RunCancelResponse,
  type RunHistoryDetail,
  type RunHistoryPage,
  type RunStatus,
} from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';
import { readerQuery } from '@/lib/open-link.ts';
import { portalApi } from '../store/portal-api.ts';

export interface HistoryFilters {
  page: number;
  status?: RunStatus | undefined;
  test?: string | undefined;
}

export const HISTORY_PAGE_SIZE = 20;

/** While a run on the screen is still going, its row or page is asked for again this often. */
export const LIVE_REFRESH_MS = 5000;
/** A run or test still queued or running. */
export const going = (status: RunStatus) => status === 'queued' || status === 'running';

/** Fresh on every visit (a run may have ended since), and kept fresh while a run shown is still going. */
export function liveOptions(active: boolean) {
  return { refetchOnMountOrArgChange: true, pollingInterval: active ? LIVE_REFRESH_MS : 0, skipPollingIfUnfocused: true };
}

export const isGoing = (runs: { status: RunStatus }[] | undefined) => Boolean(runs?.some((r) => going(r.status)));

const runPath = (runId: string) => `/test/history/${encodeURIComponent(runId)}`;
const runTestPath = (runId: string, runTestId: string) => `/test/runs/${encodeURIComponent(runId)}/tests/${encodeURIComponent(runTestId)}`;

/** The run history: the signed-in user's own client's runs (bearer), newest first. */
export const historyApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getHistory: build.query<RunHistoryPage, HistoryFilters>({
      query: ({ page, status, test }) => {
        const query = new URLSearchParams({ page: String(page), pageSize: String(HISTORY_PAGE_SIZE) });
        if (status) query.set('status', status);
        if (test) query.set('test', test);
        return { url: `/test/history?${query}`, schema: runHistoryPage };
      },
    }),
    getHistoryRun: build.query<RunHistoryDetail, string>({
      query: (runId) => ({ url: runPath(runId), schema: runHistoryDetail }),
    }),
    /** Every test name of the suite, for the filter. */
    getHistoryTestNames: build.query<string[], void>({
      query: () => ({ url: apiPaths.tests, schema: testGroups.transform((groups) => Object.values(groups).flat().sort((a, b) => a.localeCompare(b))) }),
    }),
    getEvidence: build.query<EvidenceListResponse, { runId: string; runTestId: string }>({
      query: ({ runId, runTestId }) => ({ url: `${runTestPath(runId, runTestId)}/evidence`, schema: evidenceListResponse }),
    }),
    /** Cancels what of the run still waits or runs, as the signed-in user. */
    cancelRun: build.mutation<RunCancelResponse, string>({
      query: (runId) => ({ url: `/test/runs/${encodeURIComponent(runId)}/cancel`, method: 'POST', schema: runCancelResponse }),
    }),
  }),
});

export const { useCancelRunMutation, useGetHistoryQuery, useGetHistoryRunQuery, useGetHistoryTestNamesQuery, useGetEvidenceQuery } = historyApi;

/** A short-lived address of one piece of evidence: a screenshot's image, or a trace in the trace viewer. */
export async function evidenceLink(runId: string, runTestId: string, evidenceId: string): Promise<string> {
  const path = `${runTestPath(runId, runTestId)}/evidence/${encodeURIComponent(evidenceId)}/link`;
  return evidenceLinkResponse.parse(await http.request(path, { method: 'POST' })).url;
}

/** A short-lived address that shows this run's report of one test in a sandboxed tab. */
export async function runReportLink(runId: string, runTestId: string, format: string): Promise<string> {
  const path = `${runPath(runId)}/tests/${encodeURIComponent(runTestId)}/report/${encodeURIComponent(format)}/link?${readerQuery()}`;
  return reportLinkResponse.parse(await http.request(path, { method: 'POST' })).url;
}

/** A short-lived address of the report of the whole run (html shown, pdf downloaded). */
export async function wholeRunReportLink(runId: string, format: string): Promise<string> {
  const path = `${runPath(runId)}/report/${encodeURIComponent(format)}/link?${readerQuery()}`;
  return reportLinkResponse.parse(await http.request(path, { method: 'POST' })).url;
}

