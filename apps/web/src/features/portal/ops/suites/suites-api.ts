import {
  clientList,
  consoleSuiteImportResponse,
  suiteCurrentResponse,
  suiteDiffResponse,
  suiteFileResponse,
  suiteFilesResponse,
  suiteImportRefused,
  suiteProposal,
  suiteTryResponse,
  suiteVersionsResponse,
  type ClientSummary,
  type ConsoleSuiteImportResponse,
  type SuiteCurrentResponse,
  type SuiteDiffResponse,
  type SuiteFileResponse,
  type SuiteFilesResponse,
  type SuiteProposal,
  type SuiteTryResponse,
  type SuiteVersionsResponse,
} from '@fullstop/contracts';
import { portalApi, type ApiFailure } from '../../store/portal-api.ts';

// The console's Suites page: a client's suite versions, their files and diffs, imports, trial runs, the current one.

const suitesOf = (clientId: string) => `/operator/clients/${encodeURIComponent(clientId)}/suites`;

export const suitesApi = portalApi.enhanceEndpoints({ addTagTypes: ['OpsSuites'] }).injectEndpoints({
  endpoints: (build) => ({
    getSuiteClients: build.query<ClientSummary[], void>({
      query: () => ({ url: '/operator/clients', schema: clientList }),
      transformResponse: (data: { clients: ClientSummary[] }) => data.clients,
    }),
    getSuiteVersions: build.query<SuiteVersionsResponse, string>({
      query: (clientId) => ({ url: suitesOf(clientId), schema: suiteVersionsResponse }),
      providesTags: (_r, _e, clientId) => [{ type: 'OpsSuites', id: clientId }],
    }),
    getSuiteFiles: build.query<SuiteFilesResponse, { clientId: string; version: number }>({
      query: ({ clientId, version }) => ({ url: `${suitesOf(clientId)}/${version}/files`, schema: suiteFilesResponse }),
    }),
    getSuiteFile: build.query<SuiteFileResponse, { clientId: string; version: number; path: string }>({
      query: ({ clientId, version, path }) => ({ url: `${suitesOf(clientId)}/${version}/file?path=${encodeURIComponent(path)}`, schema: suiteFileResponse }),
    }),
    getSuiteDiff: build.query<SuiteDiffResponse, { clientId: string; from: number; to: number }>({
      query: ({ clientId, from, to }) => ({ url: `${suitesOf(clientId)}/diff?from=${from}&to=${to}`, schema: suiteDiffResponse }),
    }),
    importSuite: build.mutation<ConsoleSuiteImportResponse, { clientId: string; form: FormData }>({
      query: ({ clientId, form }) => ({ url: suitesOf(clientId), method: 'POST', form, schema: consoleSuiteImportResponse }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsSuites', id: clientId }],
    }),
    trySuite: build.mutation<SuiteTryResponse, { clientId: string; version: number }>({
      query: ({ clientId, version }) => ({ url: `${suitesOf(clientId)}/${version}/try`, method: 'POST', schema: suiteTryResponse }),
    }),
    /** A starter suite from a crawl: answers at once; poll getSuiteProposal until it is done or failed. */
    proposeSuite: build.mutation<SuiteProposal, { clientId: string; maxPages?: number }>({
      query: ({ clientId, maxPages }) => ({ url: `${suitesOf(clientId)}/propose`, method: 'POST', json: maxPages ? { maxPages } : {}, schema: suiteProposal }),
    }),
    getSuiteProposal: build.query<SuiteProposal, { clientId: string; id: string }>({
      query: ({ clientId, id }) => ({ url: `${suitesOf(clientId)}/proposals/${encodeURIComponent(id)}`, schema: suiteProposal }),
      // A finished proposal wrote a version: the Suites page lists it.
      async onQueryStarted({ clientId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data?.status === 'done') dispatch(suitesApi.util.invalidateTags([{ type: 'OpsSuites', id: clientId }]));
      },
    }),
    makeSuiteCurrent: build.mutation<SuiteCurrentResponse, { clientId: string; version: number }>({
      query: ({ clientId, version }) => ({ url: `${suitesOf(clientId)}/${version}/current`, method: 'POST', schema: suiteCurrentResponse }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsSuites', id: clientId }],
    }),
  }),
});

export const {
  useGetSuiteClientsQuery,
  useGetSuiteVersionsQuery,
  useGetSuiteFilesQuery,
  useGetSuiteFileQuery,
  useGetSuiteDiffQuery,
  useImportSuiteMutation,
  useTrySuiteMutation,
  useMakeSuiteCurrentMutation,
  useProposeSuiteMutation,
  useGetSuiteProposalQuery,
} = suitesApi;

/** A refused import's problems, one line each ("file · field: reason"); empty when the failure was something else. */
export function importIssuesOf(error: unknown): string[] {
  const text = error && typeof error === 'object' && 'text' in error ? String((error as ApiFailure).text) : '';
  try {
    const parsed = suiteImportRefused.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.issues.map((i) => `${i.file} · ${i.field}: ${i.reason}`) : [];
  } catch {
    return [];
  }
}
