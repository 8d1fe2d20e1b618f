import type { ZapInsight } from '@fullstop/contracts';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { InsightCard } from './insight-card.tsx';
import { SEVERITIES, SEVERITY_COLOURS, zapBar } from './insights-math.ts';

export const ZAP_CHART_HEIGHT = 250;

export function ZapCard({ zap }: { zap: ZapInsight }) {
  return (
    <InsightCard title="Zap Insights">
      <div className="portal-split">
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
    </InsightCard>
  );
}
