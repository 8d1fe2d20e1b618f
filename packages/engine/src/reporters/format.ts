/**
 * Numbers as a reader wants them: a unit on every figure, no more digits than mean something.
 * English formatting (the report's language); dates are localised separately (see report-time.ts).
 */

const DASH = '–';
const grouped = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

const usable = (n: number) => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** `340 ms`, `1.2 s`, `12 s`, `2 min 5 s`, `1 h 4 min`. */
export function formatDuration(ms: number): string {
  if (!usable(ms)) return DASH;
  if (ms < 1) return ms === 0 ? '0 ms' : '< 1 ms';
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 9.95) return `${oneDecimal.format(s)} s`;
  if (s < 59.5) return `${Math.round(s)} s`;
  const totalS = Math.round(s);
  if (totalS < 3600) {
    const min = Math.floor(totalS / 60);
    const rest = totalS % 60;
    return rest ? `${min} min ${rest} s` : `${min} min`;
  }
  const totalMin = Math.round(totalS / 60);
  const h = Math.floor(totalMin / 60);
  const rest = totalMin % 60;
  return rest ? `${h} h ${rest} min` : `${h} h`;
}

/** `512 B`, `14 kB`, `1.4 MB` (powers of 1000, as browsers and operating systems now show sizes). */
export function formatBytes(bytes: number): string {
  if (!usable(bytes)) return DASH;
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let unit = 'B';
  for (const u of units) {
    if (v < 999.5 && unit !== 'B') break;
    v /= 1000;
    unit = u;
  }
  return `${v < 9.95 ? oneDecimal.format(v) : grouped.format(v)} ${unit}`;
}

/** A percentage given 0-100: `0%`, `< 0.1%`, `2.5%`, `100%`. */
export function formatPercent(value: number): string {
  if (!usable(value)) return DASH;
  if (value === 0) return '0%';
  if (value < 0.05) return '< 0.1%';
  return `${value < 10 ? oneDecimal.format(value) : grouped.format(value)}%`;
}

/** `1 request`, `1,204 requests`; `plural` when adding an s will not do. */
export function formatCount(n: number, singular: string, plural = `${singular}s`): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return `${DASH} ${plural}`;
  return `${grouped.format(n)} ${n === 1 ? singular : plural}`;
}

/** A plain number with thousands separators and at most one decimal: `1,204`, `12.5`. */
export function formatNumber(n: number): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return DASH;
  return Math.abs(n) < 100 ? oneDecimal.format(n) : grouped.format(n);
}

/** A rate per second: `12.5 requests/s`. */
export function formatRate(perSecond: number, unit = 'requests'): string {
  if (!usable(perSecond)) return DASH;
  return `${formatNumber(perSecond)} ${unit}/s`;
}

/** The first line of an error that says something, cut to 300 characters; undefined when none does. */
export const firstLine = (s: string | null | undefined) => (s ?? '').split('\n').find((l) => l.trim())?.trim().slice(0, 300);
