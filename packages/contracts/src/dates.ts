// The product's one date format (decision 0094), for what has no reader's locale at hand: reports before the server
// localises them, the CLI, e-mails.

/** The fields of every date the product writes: `23 Nov 2026, 10:42 UTC`. */
export const DATE_FIELDS: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
};

const utc = new Intl.DateTimeFormat('en-GB', { ...DATE_FIELDS, timeZone: 'UTC' });

/** `23 Nov 2026, 10:42 UTC`, or the input as it is when it is not a date. */
export function formatUtc(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : utc.format(d);
}
