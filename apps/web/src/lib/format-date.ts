/**
 * The portal's one date format (spec section 9): en-GB, e.g. "22/11/2026, 07:51:49". A value that is not a
 * date is shown as it came; a missing one as `missing`.
 */
export function formatDate(value: string | null | undefined, missing = ''): string {
  if (!value) return missing;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString('en-GB');
}

const runDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayMonth = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/** When a run happened, in the reader's own locale and time zone: "23 Nov 2026, 10:42" in en-GB. */
export function formatRunDate(value: string | null | undefined, missing = ''): string {
  if (!value) return missing;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : runDate.format(date);
}

/** A chart's date tick: "23 Nov" in en-GB. */
export function formatDayMonth(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dayMonth.format(date);
}

const timeOfDay = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** A chart's time tick, for runs of one day: "10:42" in en-GB. */
export function formatTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : timeOfDay.format(date);
}
