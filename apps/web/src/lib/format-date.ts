/**
 * The one date format of the portal and the console (issue 39): the spec's en-GB (section 9, the Setup page), e.g.
 * "22/11/2026, 07:51:49", in the reader's own time zone. Every page shows a date through formatDate; the chart
 * ticks below are parts of it.
 */
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'short', timeStyle: 'medium' });
const dayMonth = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
const timeOfDay = new Intl.DateTimeFormat('en-GB', { timeStyle: 'short' });

const dateOf = (value: string): Date | null => {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** A date and time: "22/11/2026, 07:51:49". A value that is not a date is shown as it came; a missing one as `missing`. */
export function formatDate(value: string | null | undefined, missing = ''): string {
  if (!value) return missing;
  const date = dateOf(value);
  return date ? dateTime.format(date) : value;
}

/** A chart's date tick: "23 Nov". */
export function formatDayMonth(value: string): string {
  const date = dateOf(value);
  return date ? dayMonth.format(date) : value;
}

/** A chart's time tick, for runs of one day: "10:42". */
export function formatTime(value: string): string {
  const date = dateOf(value);
  return date ? timeOfDay.format(date) : value;
}

/** A day as a form field shows it, in the same en-GB order: "2026-11-23" → "23/11/2026"; anything else → ''. */
export function formatDay(isoDay: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
}

/** A day typed as "23/11/2026" (or "23/11/26", "23.11.2026") as "2026-11-23"; null when it is not a real day. */
export function parseDay(text: string): string | null {
  const m = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})\s*$/.exec(text);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3]!.length === 2 ? `20${m[3]}` : m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** A span of time in its largest whole unit: "less than a minute", "5 min", "27 h" (up to two days), "3 days". */
export function formatSpan(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

/** How long ago something happened, as formatSpan says it. */
export function formatAge(value: string, now = Date.now()): string {
  const date = dateOf(value);
  return date ? formatSpan(now - date.getTime()) : value;
}
