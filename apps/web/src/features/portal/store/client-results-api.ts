import {
  apiPaths,
  insights,
  runHistoryResponse,
  testLatestResponse,
  type Insights,
  type RunHistoryResponse,
  type TestLatestResponse,
} from '@fullstop/contracts';
import { portalApi } from './portal-api.ts';

/**
 * API-key reads more than one page shows (the dashboard home, Tests, Insights): declared once, so the pages share
 * one cache entry per key instead of fetching the same answer under two names.
 */
export const clientResultsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    /** The client's newest run: a run of all still going (from CI, another tab) keeps Run All Tests busy. */
    getNewestRun: build.query<RunHistoryResponse, string>({
      query: (apiKey) => ({ url: '/test/runs?limit=1', auth: 'apiKey', apiKey, schema: runHistoryResponse }),
      providesTags: ['Tests'],
    }),
    /** How each test last ended: its status, when, how long, and its latest report's formats. */
    getLatestResults: build.query<TestLatestResponse, string>({
      query: (apiKey) => ({ url: '/test/latest', auth: 'apiKey', apiKey, schema: testLatestResponse }),
      providesTags: ['Tests'],
    }),
    getInsights: build.query<Insights, string>({
      query: (apiKey) => ({ url: apiPaths.insights, auth: 'apiKey', apiKey, schema: insights }),
      providesTags: ['Insights'],
    }),
  }),
});

export const { useGetNewestRunQuery, useGetLatestResultsQuery, useGetInsightsQuery } = clientResultsApi;
