import {
  apiPaths,
  insights,
  runDetailResponse,
  runHistoryResponse,
  testLatestResponse,
  type Insights,
  type RunDetailResponse,
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
    /** One run's tests (the newest run on the dashboard, the run of all going on the Tests page), and its manual cases waiting. */
    getRunDetail: build.query<RunDetailResponse, { runId: string; apiKey: string }>({
      query: ({ runId, apiKey }) => ({ url: `/test/runs/${encodeURIComponent(runId)}`, auth: 'apiKey', apiKey, schema: runDetailResponse }),
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

export const { useGetNewestRunQuery, useGetRunDetailQuery, useGetLatestResultsQuery, useGetInsightsQuery } = clientResultsApi;
