import type { InsightTrends, TestReportInsight } from '@fullstop/contracts';
import { Cell, Pie, PieChart, ResponsiveContainer, Tooltip } from 'recharts';
import type { ReactNode } from 'react';
import { InsightCard } from './insight-card.tsx';
import { formatRate, OUTCOME_COLOURS, outcomeSlices } from './insights-math.ts';
import { TrendLines } from './trend-chart.tsx';

export const PIE_HEIGHT = 250;
export const PIE_RADIUS = 80;

const PASS_RATE = [{ key: 'passRate', name: 'Pass rate', colour: OUTCOME_COLOURS.Passed, format: formatRate }];

export function TestReportCard({
  title,
  report,
  trend,
  notice,
}: {
  title: string;
  report: TestReportInsight;
  trend?: InsightTrends['frontend-report'];
  notice?: ReactNode;
}) {
  const slices = outcomeSlices(report);
  // The white edge between slices would draw a stray radius across a pie that is one whole slice.
  const separated = slices.filter((slice) => slice.value > 0).length > 1;
  return (
    <InsightCard title={title} runAt={trend?.runAt} notice={notice}>
      <div className="portal-split">
        <ResponsiveContainer width="100%" height={PIE_HEIGHT}>
          <PieChart>
            <Pie data={slices} dataKey="value" nameKey="name" outerRadius={PIE_RADIUS} cx="50%" cy="50%" stroke={separated ? '#fff' : 'none'}>
              {slices.map((slice) => (
                <Cell key={slice.name} fill={OUTCOME_COLOURS[slice.name]} />
              ))}
            </Pie>
            <Tooltip />
          </PieChart>
        </ResponsiveContainer>
        <div>
          <ul className="portal-key" aria-label="Test outcomes">
            {slices.map((slice) => (
              <li key={slice.name}>
                <span className="portal-key__swatch" style={{ background: OUTCOME_COLOURS[slice.name] }} aria-hidden="true" />
                <span className="portal-key__label">{slice.name}</span>
                <span className="portal-key__value">{slice.value}</span>
              </li>
            ))}
          </ul>
          <p className="portal-muted">Test Duration: {report.duration} seconds</p>
        </div>
      </div>
      {trend && <TrendLines points={trend.points} series={PASS_RATE} label={`${title} trend: pass rate`} />}
    </InsightCard>
  );
}
