import { Bar, BarChart, CartesianGrid, LabelList, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDayMonth, formatDate, formatTime } from '@/lib/format-date.ts';

/** Trend charts are smaller than the spec's charts (200 and 250 px): they sit under them as a second reading. */
export const TREND_HEIGHT = 150;

export interface TrendSeries {
  key: string;
  name: string;
  colour: string;
  /** How a value reads: "98.5%", "320 ms". */
  format: (value: number) => string;
  /** Series drawn against the right-hand axis (a second unit). */
  right?: boolean;
}

type Point = { at: string } & Record<string, unknown>;

const tooltipLabel = (_label: unknown, payload: readonly { payload?: Point }[]) => formatDate(payload[0]?.payload?.at);

/** A caption naming how many runs the trend covers, with a key to its series when there are several. */
function Caption({ runs, series }: { runs: number; series: TrendSeries[] }) {
  return (
    <figcaption className="portal-trend__head">
      <span className="portal-trend__title">
        Trend <span className="portal-muted">· last {runs === 1 ? 'run' : `${runs} runs`}</span>
      </span>
      {series.length > 1 && (
        <span className="portal-trend__key">
          {series.map((s) => (
            <span key={s.key}>
              <span className="portal-key__swatch" style={{ background: s.colour }} aria-hidden="true" />
              {s.name}
            </span>
          ))}
        </span>
      )}
    </figcaption>
  );
}

/** Date ticks, or times of day when every run of the trend was on the same day. */
function dateTicks(points: Point[]): (value: string) => string {
  const first = points[0]?.at;
  const last = points.at(-1)?.at;
  const oneDay = first && last && formatDayMonth(first) === formatDayMonth(last) && new Date(first).getFullYear() === new Date(last).getFullYear();
  return oneDay ? formatTime : formatDayMonth;
}

interface LabelProps {
  x?: number | string;
  y?: number | string;
  index?: number;
  value?: unknown;
  last: number;
  colour: string;
  format: (value: number) => string;
}

/** The newest value written above its point: the number a reader looks for first. */
function NewestValue({ x, y, index, value, last, colour, format }: LabelProps) {
  if (index !== last || value == null) return null;
  return (
    <text x={Number(x)} y={Number(y) - 8} textAnchor={last > 0 ? 'end' : 'middle'} fontSize={11} fontWeight={650} fill={colour}>
      {format(Number(value))}
    </text>
  );
}

/** Values over the last runs, oldest on the left; the newest value of each series is written beside its point. */
export function TrendLines({ points, series, label }: { points: Point[]; series: TrendSeries[]; label: string }) {
  const hasRight = series.some((s) => s.right);
  return (
    <figure className="portal-trend" aria-label={label}>
      <Caption runs={points.length} series={series} />
      <ResponsiveContainer width="100%" height={TREND_HEIGHT}>
        <LineChart data={points} margin={{ top: 18, right: hasRight ? 4 : 40, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="at" tickFormatter={dateTicks(points)} padding={{ left: 12, right: 12 }} tickLine={false} tick={{ fontSize: 12 }} minTickGap={16} />
          {series.map((s) => (
            <YAxis
              key={s.key}
              yAxisId={s.right ? 'right' : 'left'}
              orientation={s.right ? 'right' : 'left'}
              width={52}
              tick={{ fontSize: 11 }}
              tickFormatter={(v: number) => s.format(v)}
              hide={series.filter((other) => Boolean(other.right) === Boolean(s.right)).indexOf(s) > 0}
            />
          ))}
          <Tooltip labelFormatter={tooltipLabel} formatter={(v, _n, item) => series.find((s) => s.key === item.dataKey)?.format(Number(v)) ?? String(v)} />
          {series.map((s) => (
            <Line key={s.key} yAxisId={s.right ? 'right' : 'left'} type="linear" dataKey={s.key} name={s.name} stroke={s.colour} strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false}>
              <LabelList dataKey={s.key} content={(props) => <NewestValue {...props} last={points.length - 1} colour={s.colour} format={s.format} />} />
            </Line>
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** Counts per run, stacked: alerts by risk over the last runs. `whenZero` replaces the chart when every count is 0. */
export function TrendBars({ points, series, label, whenZero }: { points: Point[]; series: TrendSeries[]; label: string; whenZero: string }) {
  const empty = points.every((point) => series.every((s) => !point[s.key])) ? whenZero : null;
  return (
    <figure className="portal-trend" aria-label={label}>
      <Caption runs={points.length} series={series} />
      {empty ? (
        <p className="portal-trend__empty">{empty}</p>
      ) : (
        <ResponsiveContainer width="100%" height={TREND_HEIGHT}>
          <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="at" tickFormatter={dateTicks(points)} tickLine={false} tick={{ fontSize: 12 }} minTickGap={16} />
            <YAxis allowDecimals={false} width={32} tick={{ fontSize: 11 }} />
            <Tooltip labelFormatter={tooltipLabel} />
            {series.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={s.name} stackId="trend" fill={s.colour} maxBarSize={28} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}
