import type { ReactNode } from 'react';
import type { InsightTrends, ZapInsight } from '@fullstop/contracts';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { InsightCard } from './insight-card.tsx';
import { noAlerts, SEVERITIES, SEVERITY_COLOURS, zapBar } from './insights-math.ts';
import { TrendBars } from './trend-chart.tsx';
import './insights.css';

export const ZAP_CHART_HEIGHT = 250;

const RISKS = (['High', 'Medium', 'Low', 'Informational'] as const).map((risk) => ({
  key: risk,
  name: risk,
  colour: SEVERITY_COLOURS[risk],
  format: String,
}));

export function ZapCard({ zap, trend, notice }: { zap: ZapInsight; trend?: InsightTrends['zap']; notice?: ReactNode }) {
  return (
    <InsightCard title="Zap Insights" runAt={trend?.runAt} notice={notice}>
      {zap.nothingToAttack && (
        // It attacked nothing: the counts are the passive checks' alone, and "No alerts found" would read as a pass.
        <p className="insight-incomplete" data-testid="zap-nothing-to-attack">
          <strong>Nothing to attack:</strong> {zap.nothingToAttack}. The counts are those of the passive checks alone.
        </p>
      )}
      {zap.incomplete && (
        // The scan did not attack everything: these are the alerts of what it did attack (decision 0058).
        <p className="insight-incomplete" data-testid="zap-incomplete">
          <strong>Incomplete scan:</strong> {zap.incomplete}. The counts are those of what it attacked.
        </p>
      )}
      <div className="portal-split">
        {noAlerts(zap) && zap.nothingToAttack ? (
          <p className="portal-empty" style={{ height: ZAP_CHART_HEIGHT }}>
            No alerts, and nothing attacked
          </p>
        ) : noAlerts(zap) ? (
          <p className="portal-empty portal-no-alerts" style={{ height: ZAP_CHART_HEIGHT }}>
            No alerts found
          </p>
        ) : (
          <ResponsiveContainer width="100%" height={ZAP_CHART_HEIGHT}>
            <BarChart data={zapBar(zap)}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="name" tickLine={false} />
              <YAxis allowDecimals={false} width={40} />
              <Tooltip />
              {SEVERITIES.map((severity) => (
                <Bar key={severity} dataKey={severity} stackId="risk" fill={SEVERITY_COLOURS[severity]} maxBarSize={96} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        )}
        <ul className="portal-key" aria-label="Alerts by risk">
          {SEVERITIES.map((severity) => (
            <li key={severity}>
              <span className="portal-key__swatch" style={{ background: SEVERITY_COLOURS[severity] }} aria-hidden="true" />
              <span className="portal-key__label">{severity}</span>
              <span className="portal-key__value">{zap[severity]}</span>
            </li>
          ))}
        </ul>
      </div>
      {trend && (
        <TrendBars
          points={trend.points}
          series={RISKS}
          label="Zap trend: alerts by risk"
          whenZero={`No alerts in the last ${trend.points.length === 1 ? 'run' : `${trend.points.length} runs`}`}
        />
      )}
    </InsightCard>
  );
}
