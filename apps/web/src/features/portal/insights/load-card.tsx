import type { InsightTrends, LoadInsight } from '@fullstop/contracts';
import { Bar, BarChart, CartesianGrid, LabelList, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReactElement, ReactNode } from 'react';
import { DataFacts } from '../components/data-facts.tsx';
import { Carousel } from './carousel.tsx';
import { InsightCard } from './insight-card.tsx';
import { dataTransfer, formatBytes, formatCompact, formatMs, formatNumber, formatPointMs, formatRate, loadSummary, requestsOverview, responseTimes } from './insights-math.ts';
import { TrendLines } from './trend-chart.tsx';
import { WrappedTick } from './wrapped-tick.tsx';

export const LOAD_PANEL_HEIGHT = 200;
export const LINE_ANIMATION_MS = 1500;

/** One panel of the carousel: its title, its chart at the panel's height, and what follows the chart. */
function Panel({ title, unit, chart, children }: { title: string; unit?: string; chart: ReactElement; children?: ReactNode }) {
  return (
    <figure className="portal-panel">
      <figcaption className="portal-panel__title">
        {title}
        {unit && <span className="portal-panel__unit"> ({unit})</span>}
      </figcaption>
      <ResponsiveContainer width="100%" height={LOAD_PANEL_HEIGHT}>
        {chart}
      </ResponsiveContainer>
      {children}
    </figure>
  );
}

const LOAD_TREND = [
  { key: 'p95Ms', name: '95th percentile', colour: '#7c3aed', format: formatMs },
  { key: 'failedRate', name: 'Failed rate', colour: '#dc2626', format: formatRate, right: true },
];

export function LoadCard({ load, trend, notice }: { load: LoadInsight; trend?: InsightTrends['load']; notice?: ReactNode }) {
  const summary = loadSummary(load);
  return (
    <InsightCard title="Load Insights" runAt={trend?.runAt} notice={notice}>
      <Carousel label="Load test panels">
        <Panel
          title="Requests Overview"
          chart={
            <BarChart data={requestsOverview(load)}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              {/* Every bar keeps its name: at narrow panel widths the axis would otherwise drop "Success". */}
              <XAxis dataKey="name" tickLine={false} interval={0} tick={{ fontSize: 13 }} />
              <YAxis allowDecimals={false} width={48} tickFormatter={(v: number) => formatCompact(v)} />
              <Tooltip formatter={(v) => formatNumber(Number(v))} />
              <Bar dataKey="value" name="Requests" fill="var(--portal-brand, #2563eb)" radius={[4, 4, 0, 0]} />
            </BarChart>
          }
        >
          <DataFacts
            className="portal-summary"
            facts={[
              { term: 'Total Requests', value: formatNumber(summary.totalRequests) },
              { term: 'Success Rate', value: summary.successRate },
              { term: 'Failed Requests Rate', value: summary.failedRate },
              { term: 'Custom Metric Threshold Met', value: summary.thresholdMet },
            ]}
          />
        </Panel>
        <Panel
          title="Response Times"
          unit="ms"
          chart={
            <LineChart data={responseTimes(load)} margin={{ top: 20, right: 24, bottom: 0, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="name" tickLine={false} interval={0} height={40} tick={WrappedTick} padding={{ left: 16, right: 28 }} />
              <YAxis width={44} tickFormatter={(v: number) => formatCompact(v)} />
              <Tooltip formatter={(v) => `${formatNumber(Number(v))} ms`} />
              <Line type="linear" dataKey="ms" name="Time" stroke="#7c3aed" strokeWidth={2} animationDuration={LINE_ANIMATION_MS}>
                {/* Each value written at its point: avg and p95 stay readable on an axis a large max sets. */}
                <LabelList dataKey="ms" position="top" offset={8} fontSize={11} fontWeight={650} fill="#5b21b6" formatter={(v: unknown) => formatPointMs(Number(v))} />
              </Line>
            </LineChart>
          }
        />
        <Panel
          title="Data Transfer"
          unit="bytes"
          chart={
            <BarChart data={dataTransfer(load)} margin={{ top: 20, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="name" tickLine={false} />
              {/* A no-break space keeps "800 MB" on one line: the axis wraps ticks at spaces. */}
              <YAxis width={68} tickFormatter={(v: number) => formatBytes(v).replace(' ', '\u00a0')} />
              <Tooltip formatter={(v) => `${formatBytes(Number(v))} (${formatNumber(Number(v))} bytes)`} />
              <Bar dataKey="bytes" name="Bytes" fill="#0d9488" radius={[4, 4, 0, 0]}>
                <LabelList dataKey="bytes" position="top" fontSize={12} fontWeight={650} fill="#115e59" formatter={(v: unknown) => formatBytes(Number(v))} />
              </Bar>
            </BarChart>
          }
        />
      </Carousel>
      {trend && <TrendLines points={trend.points} series={LOAD_TREND} label="Load trend: 95th percentile and failed rate" />}
    </InsightCard>
  );
}
