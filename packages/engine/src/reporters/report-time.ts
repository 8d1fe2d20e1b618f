/**
 * Times in a report. The file is static (no script runs in it), so each time is written as
 * `<time datetime="ISO">` with English UTC text, and the server rewrites that text into the reader's
 * locale and time zone when it serves the file (localizeReportTimes).
 */
import { DATE_FIELDS, formatUtc } from '@fullstop/contracts';
import { escapeHtml } from './html/escape.ts';

const FALLBACK = { locale: 'en-GB', timeZone: 'UTC' } as const;

function formatter(locale: string, timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, { ...DATE_FIELDS, timeZone });
}

export { formatUtc };

/** A `<time>` element the server can localise later. */
export function timeTag(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return escapeHtml(iso);
  return `<time datetime="${escapeHtml(d.toISOString())}">${escapeHtml(formatUtc(iso))}</time>`;
}

function validLocale(locale: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(locale);
    return canonical && Intl.DateTimeFormat.supportedLocalesOf(canonical).length > 0 ? canonical : FALLBACK.locale;
  } catch {
    return FALLBACK.locale;
  }
}

function validTimeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone }).format(0);
    return timeZone;
  } catch {
    return FALLBACK.timeZone;
  }
}

/** The reader's locale and time zone as given, or en-GB and UTC for whichever is not a valid one. */
export function resolveReaderTime(opts: { locale?: unknown; timeZone?: unknown }): { locale: string; timeZone: string } {
  return {
    locale: typeof opts.locale === 'string' && opts.locale ? validLocale(opts.locale) : FALLBACK.locale,
    timeZone: typeof opts.timeZone === 'string' && opts.timeZone ? validTimeZone(opts.timeZone) : FALLBACK.timeZone,
  };
}

const TIME_ELEMENT = /<time datetime="([^"<>]*)">[^<]*<\/time>/g;

/**
 * Rewrites the text of every `<time datetime>` element in the reader's locale and time zone. Pure; an unknown
 * locale or time zone falls back to en-GB and UTC, and a datetime that is not a date is left as it was.
 */
export function localizeReportTimes(html: string, opts: { locale: string; timeZone: string }): string {
  const reader = resolveReaderTime(opts);
  const fmt = formatter(reader.locale, reader.timeZone);
  return html.replace(TIME_ELEMENT, (whole, datetime: string) => {
    const d = new Date(datetime.replace(/&[a-z#0-9]+;/gi, ''));
    if (Number.isNaN(d.getTime())) return whole;
    return `<time datetime="${datetime}">${escapeHtml(fmt.format(d))}</time>`;
  });
}
