import { evidenceLinkResponse, evidenceListResponse, opsApiPaths, reportLinkResponse, type EvidenceListResponse } from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';
import { readerQuery } from '@/lib/open-link.ts';
import { portalApi } from '../../store/portal-api.ts';

/** One test of one run of a client, as the console names it. */
export interface RunTestRef {
  clientId: string;
  runId: string;
  runTestId: string;
}

const base = ({ clientId, runId, runTestId }: RunTestRef) => opsApiPaths.runTest(clientId, runId, runTestId);

/** A failing test's traces and screenshots, read by an operator through the operator routes. */
export const opsEvidenceApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getOpsEvidence: build.query<EvidenceListResponse, RunTestRef>({
      query: (ref) => ({ url: `${base(ref)}/evidence`, schema: evidenceListResponse }),
    }),
  }),
});

export const { useGetOpsEvidenceQuery } = opsEvidenceApi;

/** A short-lived address of one piece of evidence: a screenshot's image, or a trace in the trace viewer. */
export async function opsEvidenceLink(ref: RunTestRef, evidenceId: string): Promise<string> {
  return evidenceLinkResponse.parse(await http.request(`${base(ref)}/evidence/${encodeURIComponent(evidenceId)}/link`, { method: 'POST' })).url;
}

/** A short-lived address of the run's report of the test, the one the client reads. */
export async function opsReportLink(ref: RunTestRef, format: string): Promise<string> {
  return reportLinkResponse.parse(await http.request(`${base(ref)}/report/${encodeURIComponent(format)}/link?${readerQuery()}`, { method: 'POST' })).url;
}
