import { INSIGHT_KEYS, type InsightKey, type Insights, type InsightTrends, type TestLatestResult } from '@fullstop/contracts';
import { Fragment, type ReactNode } from 'react';
import { AsyncEmpty } from '../components/async-state.tsx';
import { InsightCard } from './insight-card.tsx';
import { LoadCard } from './load-card.tsx';
import { NotRunNotice } from './not-run-notice.tsx';
import { INSIGHT_TITLES, notRunTests } from './not-run.ts';
import { TestReportCard } from './test-report-card.tsx';
import { ZapCard } from './zap-card.tsx';

/**
 * The four cards in the spec's order, each when its data exists or its latest tests could not run; `trends`
 * adds each card's run date and trend, `latest` (GET /test/latest) why a card's tests could not run.
 */
export function InsightsView({ data, trends, latest }: { data: Insights | undefined; trends?: InsightTrends | undefined; latest?: readonly TestLatestResult[] | undefined }) {
  const notRun = Object.fromEntries(INSIGHT_KEYS.map((key) => [key, notRunTests(latest, key)])) as Record<InsightKey, TestLatestResult[]>;
  const keys = INSIGHT_KEYS.filter((key) => data?.[key] != null || notRun[key].length > 0);
  if (keys.length === 0) return <AsyncEmpty>No insights available.</AsyncEmpty>;
  const notice = (key: InsightKey): ReactNode =>
    notRun[key].length > 0 ? <NotRunNotice insight={key} tests={notRun[key]} hasFigures={data?.[key] != null} /> : undefined;
  const card = (key: InsightKey): ReactNode => {
    switch (key) {
      case 'load':
        return data?.load && <LoadCard load={data.load} trend={trends?.load} notice={notice(key)} />;
      case 'zap':
        return data?.zap && <ZapCard zap={data.zap} trend={trends?.zap} notice={notice(key)} />;
      case 'frontend-report':
      case 'security-report': {
        const report = data?.[key];
        return report && <TestReportCard title={INSIGHT_TITLES[key]} report={report} trend={trends?.[key]} notice={notice(key)} />;
      }
    }
  };
  return (
    <div className="portal-stack">
      {keys.map((key) => (
        // A card without figures whose tests could not run still shows, saying why.
        <Fragment key={key}>{card(key) || <InsightCard title={INSIGHT_TITLES[key]} notice={notice(key)} />}</Fragment>
      ))}
    </div>
  );
}
