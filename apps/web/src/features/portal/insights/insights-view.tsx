import type { Insights, InsightTrends } from '@fullstop/contracts';
import { LoadCard } from './load-card.tsx';
import { presentInsightKeys } from './insights-math.ts';
import { TestReportCard } from './test-report-card.tsx';
import { ZapCard } from './zap-card.tsx';

/** The four cards in the spec's order, each only when its data exists; `trends` adds each card's run date and trend. */
export function InsightsView({ data, trends }: { data: Insights | undefined; trends?: InsightTrends | undefined }) {
  const keys = presentInsightKeys(data);
  if (!data || keys.length === 0) return <p className="portal-empty">No insights available.</p>;
  return (
    <div className="portal-stack">
      {data.load && <LoadCard load={data.load} trend={trends?.load} />}
      {data.zap && <ZapCard zap={data.zap} trend={trends?.zap} />}
      {data['frontend-report'] && <TestReportCard title="Frontend Test Insights" report={data['frontend-report']} trend={trends?.['frontend-report']} />}
      {data['security-report'] && <TestReportCard title="Security Test Insights" report={data['security-report']} trend={trends?.['security-report']} />}
    </div>
  );
}
