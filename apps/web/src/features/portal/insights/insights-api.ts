import { apiPaths, insightTrends, type InsightTrends } from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

/** Insights' own read; the spec's insights call itself is shared with the dashboard home (store/client-results-api.ts). */
export const insightsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    /** Ours: each card's run date and trend. Sent with the same key as the spec's insights call. */
    getInsightTrends: build.query<InsightTrends, string>({
      query: (apiKey) => ({ url: apiPaths.insightTrends, auth: 'apiKey', apiKey, schema: insightTrends }),
      providesTags: ['Insights'],
    }),
  }),
});

export const { useGetInsightTrendsQuery } = insightsApi;
