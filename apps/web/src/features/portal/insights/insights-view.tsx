import type { Insights } from '@fullstop/contracts';
import { LoadCard } from './load-card.tsx';
import { presentInsightKeys } from './insights-math.ts';
import { TestReportCard } from './test-report-card.tsx';
import { ZapCard } from './zap-card.tsx';

/** The four cards in the spec's order, each only when its data exists. */
export function InsightsView({ data }: { data: Insights | undefined }) {
  const keys = presentInsightKeys(data);
  if (!data || keys.length === 0) return <p className="portal-empty">No insights available.</p>;
  return (
    <div className="portal-stack">
      {data.load && <LoadCard load={data.load} />}
      {data.zap && <ZapCard zap={data.zap} />}
      {data['frontend-report'] && <TestReportCard title="Frontend Test Insights" report={data['frontend-report']} />}
      {data['security-report'] && <TestReportCard title="Security Test Insights" report={data['security-report']} />}
    </div>
  );
}
