import {
  flakyMark,
  flakyMarkList,
  messageResponse,
  newClientResponse,
  newUserResponse,
  opsApiPaths,
  opsAuditPage,
  opsClientDetail,
  opsClientList,
  opsSystem,
  revealApiKeyResponse,
  runCancelResponse,
  type FalsePositiveRequest,
  type FlakyMark,
  type FlakyMarkList,
  type MessageResponse,
  type NewClientBody,
  type NewClientResponse,
  type NewUserBody,
  type NewUserResponse,
  type OpsAuditPage,
  type OpsAuditQuery,
  type OpsClientDetail,
  type OpsClientList,
  type OpsRunsPage,
  type OpsRunsQuery,
  type OpsSystem,
  type RevealApiKeyResponse,
  type RunCancelResponse,
  opsRunsPage,
} from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

/** `?a=1&b=x` from the set values only. */
export function queryString(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

const api = portalApi.enhanceEndpoints({ addTagTypes: ['OpsClients', 'OpsClient', 'OpsRuns', 'OpsAudit'] });

/** The console's calls: clients and their health, the runs feed and its triage, the audit log. */
export const opsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOpsClients: build.query<OpsClientList, void>({
      query: () => ({ url: opsApiPaths.clients, schema: opsClientList }),
      providesTags: ['OpsClients'],
    }),
    createOpsClient: build.mutation<NewClientResponse, NewClientBody>({
      query: (json) => ({ url: opsApiPaths.clients, method: 'POST', json, schema: newClientResponse }),
      invalidatesTags: ['OpsClients', 'OpsAudit'],
    }),
    getOpsClient: build.query<OpsClientDetail, string>({
      query: (clientId) => ({ url: opsApiPaths.client(clientId), schema: opsClientDetail }),
      providesTags: (_r, _e, clientId) => [{ type: 'OpsClient', id: clientId }],
    }),
    createOpsUser: build.mutation<NewUserResponse, NewUserBody & { clientId: string }>({
      query: (json) => ({ url: opsApiPaths.users, method: 'POST', json, schema: newUserResponse }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsClient', id: clientId }, 'OpsClients'],
    }),
    changeOrigin: build.mutation<MessageResponse, { clientId: string; origin: string; remove?: boolean }>({
      query: ({ clientId, origin, remove }) => ({ url: opsApiPaths.clientPart(clientId, 'origins'), method: remove ? 'DELETE' : 'POST', json: { origin }, schema: messageResponse }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsClient', id: clientId }],
    }),
    revealApiKey: build.mutation<RevealApiKeyResponse, string>({
      query: (clientId) => ({ url: opsApiPaths.clientPart(clientId, 'reveal-api-key'), method: 'POST', schema: revealApiKeyResponse }),
      invalidatesTags: ['OpsAudit'],
    }),
    getOpsRuns: build.query<OpsRunsPage, OpsRunsQuery>({
      query: (q) => ({ url: `${opsApiPaths.runs}${queryString({ status: q.status, clientId: q.clientId, page: q.page })}`, schema: opsRunsPage }),
      providesTags: ['OpsRuns'],
    }),
    getFlakyMarks: build.query<FlakyMarkList, string>({
      query: (clientId) => ({ url: opsApiPaths.clientPart(clientId, 'flaky'), schema: flakyMarkList }),
      // Marking, confirming and clearing invalidate the runs feed; the list goes with it.
      providesTags: ['OpsRuns'],
    }),
    markFlaky: build.mutation<FlakyMark, { clientId: string; testName: string; note?: string }>({
      query: ({ clientId, ...json }) => ({ url: opsApiPaths.clientPart(clientId, 'flaky'), method: 'POST', json, schema: flakyMark }),
      invalidatesTags: ['OpsRuns'],
    }),
    clearFlaky: build.mutation<MessageResponse, { clientId: string; testName: string }>({
      query: ({ clientId, testName }) => ({ url: opsApiPaths.flakyMark(clientId, testName), method: 'DELETE', schema: messageResponse }),
      invalidatesTags: ['OpsRuns'],
    }),
    confirmFlaky: build.mutation<FlakyMark, { clientId: string; testName: string }>({
      query: ({ clientId, testName }) => ({ url: opsApiPaths.flakyConfirm(clientId, testName), method: 'POST', schema: flakyMark }),
      invalidatesTags: ['OpsRuns'],
    }),
    markFalsePositive: build.mutation<MessageResponse, FalsePositiveRequest & { clientId: string }>({
      query: ({ clientId, ...json }) => ({ url: opsApiPaths.clientPart(clientId, 'false-positives'), method: 'POST', json, schema: messageResponse }),
      invalidatesTags: ['OpsRuns'],
    }),
    rerunTest: build.mutation<MessageResponse, { clientId: string; testName: string }>({
      query: ({ clientId, testName }) => ({ url: opsApiPaths.clientPart(clientId, 'runs'), method: 'POST', json: { testName, wait: false }, schema: messageResponse }),
      invalidatesTags: ['OpsRuns', 'OpsClients'],
    }),
    cancelOpsRun: build.mutation<RunCancelResponse, { clientId: string; runId: string }>({
      query: ({ clientId, runId }) => ({ url: `${opsApiPaths.clientPart(clientId, 'runs')}/${encodeURIComponent(runId)}/cancel`, method: 'POST', schema: runCancelResponse }),
      invalidatesTags: ['OpsRuns', 'OpsAudit'],
    }),
    getAuditLog: build.query<OpsAuditPage, OpsAuditQuery>({
      query: (q) => ({ url: `${opsApiPaths.audit}${queryString({ ...q })}`, schema: opsAuditPage }),
      providesTags: ['OpsAudit'],
    }),
    getOpsSystem: build.query<OpsSystem, void>({
      query: () => ({ url: opsApiPaths.system, schema: opsSystem }),
    }),
  }),
});

export const {
  useGetOpsClientsQuery,
  useCreateOpsClientMutation,
  useGetOpsClientQuery,
  useCreateOpsUserMutation,
  useChangeOriginMutation,
  useRevealApiKeyMutation,
  useGetOpsRunsQuery,
  useMarkFlakyMutation,
  useClearFlakyMutation,
  useGetFlakyMarksQuery,
  useConfirmFlakyMutation,
  useMarkFalsePositiveMutation,
  useRerunTestMutation,
  useCancelOpsRunMutation,
  useGetAuditLogQuery,
  useGetOpsSystemQuery,
} = opsApi;
