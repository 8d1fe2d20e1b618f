import {
  clientProfile,
  clientRequest,
  clientRequestList,
  generateApiKeyResponse,
  insights,
  reportGroups,
  runQueuedResponse,
  testGroups,
  type ClientProfile,
  type ClientRequest,
  type CreateClientRequest,
  type GenerateApiKeyResponse,
  type Insights,
  type ReportGroups,
  type RunQueuedResponse,
  type TestGroups,
} from '@fullstop/contracts';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { storeApiKey } from '@/lib/auth-storage.ts';
import { HttpError, http, type RequestOptions } from '@/lib/http-client.ts';

/** A failed call as the store keeps it: plain data, so it can live in Redux state. */
export interface ApiFailure {
  status: number;
  /** The server's `{ message }`, or its response text, or the client's own description. */
  message: string;
  text: string;
}

interface QueryArgs extends RequestOptions {
  url: string;
  /** The contract schema the answer must match (it also fills the spec's defaults). */
  schema?: { parse(data: unknown): unknown };
}

export function toFailure(error: unknown): ApiFailure {
  if (error instanceof HttpError) {
    return { status: error.status, message: error.serverMessage ?? (error.responseText || error.message), text: error.responseText };
  }
  return { status: 0, message: error instanceof Error ? error.message : String(error), text: '' };
}

const httpBaseQuery: BaseQueryFn<QueryArgs, unknown, ApiFailure> = async ({ url, schema, ...options }) => {
  try {
    const data = await http.request(url, options);
    return { data: schema ? schema.parse(data) : data };
  } catch (error) {
    return { error: toFailure(error) };
  }
};

/**
 * Every portal call with a cache. API-key calls take the key from the client profile, the same key a
 * client's CI uses; the session client adds the header.
 */
export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: httpBaseQuery,
  tagTypes: ['Profile', 'Tests', 'Reports', 'Insights', 'Requests'],
  endpoints: (build) => ({
    getProfile: build.query<ClientProfile, string>({
      query: (clientId) => ({ url: `/clientProfile/${encodeURIComponent(clientId)}`, schema: clientProfile }),
      providesTags: ['Profile'],
      async onQueryStarted(_clientId, { queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          storeApiKey(data.apiToken);
        } catch (error) {
          console.error('Could not load the client profile', error);
        }
      },
    }),
    generateApiKey: build.mutation<GenerateApiKeyResponse, string>({
      query: (clientId) => ({
        url: `/clientProfile/generateAPIKey/${encodeURIComponent(clientId)}`,
        method: 'POST',
        schema: generateApiKeyResponse,
      }),
      async onQueryStarted(clientId, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          storeApiKey(data.apiKey);
          dispatch(
            portalApi.util.updateQueryData('getProfile', clientId, (profile) => {
              profile.apiToken = data.apiKey;
            }),
          );
        } catch (error) {
          console.error('Could not generate a new API key', error);
        }
      },
    }),
    getInsights: build.query<Insights, string>({
      query: (apiKey) => ({ url: '/insight/fetch/all', auth: 'apiKey', apiKey, schema: insights }),
      providesTags: ['Insights'],
    }),
    getTests: build.query<TestGroups, string>({
      query: (apiKey) => ({ url: '/test/fetch/all', auth: 'apiKey', apiKey, schema: testGroups }),
      providesTags: ['Tests'],
    }),
    runAllTests: build.mutation<RunQueuedResponse, string>({
      query: (apiKey) => ({ url: '/test/run/all', auth: 'apiKey', apiKey, schema: runQueuedResponse }),
    }),
    runTest: build.mutation<RunQueuedResponse, { testName: string; apiKey: string }>({
      query: ({ testName, apiKey }) => ({
        url: `/test/run/${encodeURIComponent(testName)}`,
        auth: 'apiKey',
        apiKey,
        schema: runQueuedResponse,
      }),
    }),
    getReports: build.query<ReportGroups, string>({
      // Spec: a 404 or any other failure means "no reports", never an error on the page.
      async queryFn(apiKey) {
        try {
          return { data: reportGroups.parse(await http.request('/report/fetch/all', { auth: 'apiKey', apiKey })) };
        } catch (error) {
          // 404 is the server's way of saying "no reports yet": expected, so not logged as an error.
          if (!(error instanceof HttpError && error.status === 404)) console.error('Could not load reports', error);
          return { data: {} };
        }
      },
      providesTags: ['Reports'],
    }),
    getRequests: build.query<ClientRequest[], void>({
      query: () => ({ url: '/requests', schema: clientRequestList }),
      providesTags: ['Requests'],
    }),
    createRequest: build.mutation<ClientRequest, CreateClientRequest>({
      query: (body) => ({ url: '/requests', method: 'POST', json: body, schema: clientRequest }),
      invalidatesTags: ['Requests'],
    }),
  }),
});

export const {
  useGetProfileQuery,
  useGenerateApiKeyMutation,
  useGetInsightsQuery,
  useGetTestsQuery,
  useRunAllTestsMutation,
  useRunTestMutation,
  useGetReportsQuery,
  useGetRequestsQuery,
  useCreateRequestMutation,
} = portalApi;
