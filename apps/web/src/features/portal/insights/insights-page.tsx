import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect } from 'react';
import { AsyncLoading } from '../components/async-state.tsx';
import { PortalPage } from '../components/portal-page.tsx';
import { useGetInsightsQuery, useGetLatestResultsQuery } from '../store/client-results-api.ts';
import { useClientProfile } from '../store/use-client-profile.ts';
import { useGetInsightTrendsQuery } from './insights-api.ts';
import { InsightsView } from './insights-view.tsx';

export function InsightsPage() {
  const profile = useClientProfile();
  const apiToken = profile.data?.apiToken || null;
  // Spec: fetched with the profile's apiToken, and only when a profile with one exists.
  const insights = useGetInsightsQuery(apiToken ?? skipToken);
  // Ours: the cards' run dates and trends. Without them the spec's cards still show.
  const trends = useGetInsightTrendsQuery(apiToken ?? skipToken);
  // Ours: each test's latest result, so a card whose tests could not run says why instead of vanishing.
  const latest = useGetLatestResultsQuery(apiToken ?? skipToken);

  useEffect(() => {
    if (insights.error) console.error('Could not load insights', insights.error);
  }, [insights.error]);
  useEffect(() => {
    if (latest.error) console.error('Could not load the latest results', latest.error);
  }, [latest.error]);
  useEffect(() => {
    if (trends.error) console.error('Could not load the insight trends', trends.error);
  }, [trends.error]);

  const loading = profile.isLoading || insights.isLoading;
  return (
    <PortalPage id="insights-title" title="Insights">
      {loading ? <AsyncLoading>Loading insights…</AsyncLoading> : <InsightsView data={insights.data} trends={trends.data} latest={latest.data?.tests} />}
    </PortalPage>
  );
}
