import { runDetailResponse, type RunDetailResponse } from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

/**
 * What the dashboard home reads beside the shared reads of store/client-results-api.ts (the newest run, each
 * test's latest result, the insights): the newest run's tests.
 */
export const homeApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getHomeRun: build.query<RunDetailResponse, { runId: string; apiKey: string }>({
      query: ({ runId, apiKey }) => ({ url: `/test/runs/${encodeURIComponent(runId)}`, auth: 'apiKey', apiKey, schema: runDetailResponse }),
      providesTags: ['Tests'],
    }),
  }),
});

export const { useGetHomeRunQuery } = homeApi;
