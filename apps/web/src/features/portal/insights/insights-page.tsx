import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect } from 'react';
import { useClientProfile } from '../store/use-client-profile.ts';
import { useGetInsightsQuery } from '../store/portal-api.ts';
import { InsightsView } from './insights-view.tsx';

export function InsightsPage() {
  const profile = useClientProfile();
  const apiToken = profile.data?.apiToken || null;
  // Spec: fetched with the profile's apiToken, and only when a profile with one exists.
  const insights = useGetInsightsQuery(apiToken ?? skipToken);

  useEffect(() => {
    if (insights.error) console.error('Could not load insights', insights.error);
  }, [insights.error]);

  const loading = profile.isLoading || insights.isLoading;
  return (
    <section aria-labelledby="insights-title">
      <h1 id="insights-title" className="portal-page-title">
        Insights
      </h1>
      {loading ? <p className="portal-muted" role="status">Loading insights…</p> : <InsightsView data={insights.data} />}
    </section>
  );
}
