import type { LoadInsight } from '@fullstop/contracts';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReactNode } from 'react';
import { Carousel } from './carousel.tsx';
import { InsightCard } from './insight-card.tsx';
import { dataTransfer, formatBytes, formatCompact, formatNumber, loadSummary, requestsOverview, responseTimes } from './insights-math.ts';
import { WrappedTick } from './wrapped-tick.tsx';

export const LOAD_PANEL_HEIGHT = 200;
export const LINE_ANIMATION_MS = 1500;

function Panel({ title, unit, children }: { title: string; unit?: string; children: ReactNode }) {
  return (
    <figure className="portal-panel">
      <figcaption className="portal-panel__title">
        {title}
        {unit && <span className="portal-panel__unit"> ({unit})</span>}
      </figcaption>
      {children}
    </figure>
  );
}

export function LoadCard({ load }: { load: LoadInsight }) {
  const summary = loadSummary(load);
  return (
    <InsightCard title="Load Insights">
      <Carousel label="Load test panels">
        <Panel title="Requests Overview">
          <ResponsiveContainer width="100%" height={LOAD_PANEL_HEIGHT}>
            <BarChart data={requestsOverview(load)}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              {/* Every bar keeps its name: at narrow panel widths the axis would otherwise drop "Success". */}
              <XAxis dataKey="name" tickLine={false} interval={0} tick={{ fontSize: 13 }} />
              <YAxis allowDecimals={false} width={48} tickFormatter={(v: number) => formatCompact(v)} />
              <Tooltip formatter={(v) => formatNumber(Number(v))} />
              <Bar dataKey="value" name="Requests" fill="var(--portal-brand, #2563eb)" radius={[4, 4, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
          <dl className="portal-summary">
            <div>
              <dt>Total Requests</dt>
              <dd>{formatNumber(summary.totalRequests)}</dd>
            </div>
            <div>
              <dt>Success Rate</dt>
              <dd>{summary.successRate}</dd>
            </div>
            <div>
              <dt>Failed Requests Rate</dt>
              <dd>{summary.failedRate}</dd>
            </div>
            <div>
              <dt>Custom Metric Threshold Met</dt>
              <dd>{summary.thresholdMet}</dd>
            </div>
          </dl>
        </Panel>
        <Panel title="Response Times" unit="ms">
          <ResponsiveContainer width="100%" height={LOAD_PANEL_HEIGHT}>
            <LineChart data={responseTimes(load)} margin={{ top: 8, right: 24, bottom: 0, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="name" tickLine={false} interval={0} height={40} tick={WrappedTick} padding={{ left: 16, right: 28 }} />
              <YAxis width={44} tickFormatter={(v: number) => formatCompact(v)} />
              <Tooltip formatter={(v) => `${formatNumber(Number(v))} ms`} />
              <Line type="linear" dataKey="ms" name="Time" stroke="#7c3aed" strokeWidth={2} animationDuration={LINE_ANIMATION_MS} />
            </LineChart>
          </ResponsiveContainer>
        </Panel>
        <Panel title="Data Transfer" unit="bytes">
          <ResponsiveContainer width="100%" height={LOAD_PANEL_HEIGHT}>
            <BarChart data={dataTransfer(load)}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="name" tickLine={false} />
              {/* A no-break space keeps "800 MB" on one line: the axis wraps ticks at spaces. */}
              <YAxis width={68} tickFormatter={(v: number) => formatBytes(v).replace(' ', '\u00a0')} />
              <Tooltip formatter={(v) => `${formatNumber(Number(v))} bytes`} />
              <Bar dataKey="bytes" name="Bytes" fill="#0d9488" radius={[4, 4, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </Panel>
      </Carousel>
    </InsightCard>
  );
}
