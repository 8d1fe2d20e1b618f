import { describe, expect, it } from 'vitest';
import { localizeReportTimes, resolveReaderTime, timeTag } from './report-time.ts';

const html = `<p>Started ${timeTag('2026-11-23T10:42:05.000Z')}, ended ${timeTag('2026-11-23T10:44:00Z')}</p>`;

describe('report times', () => {
  it('writes a machine date with a readable UTC fallback', () => {
    expect(timeTag('2026-11-23T10:42:05.000Z')).toBe('<time datetime="2026-11-23T10:42:05.000Z">23 Nov 2026, 10:42 UTC</time>');
    expect(timeTag(null)).toBe('–');
    expect(timeTag('<b>')).toBe('&lt;b&gt;');
  });

  it("rewrites each time in the reader's locale and time zone", () => {
    const out = localizeReportTimes(html, { locale: 'en-US', timeZone: 'America/New_York' });
    expect(out).toContain('<time datetime="2026-11-23T10:42:05.000Z">Nov 23, 2026, 05:42 AM EST</time>');
    expect(out).toContain('Nov 23, 2026, 05:44 AM EST');
    const de = localizeReportTimes(html, { locale: 'de-DE', timeZone: 'Europe/Berlin' });
    expect(de).toContain('23. Nov. 2026, 11:42 MEZ');
  });

  it('falls back to en-GB and UTC on a bad locale or time zone, never throwing', () => {
    const out = localizeReportTimes(html, { locale: 'not a locale!!', timeZone: 'Mars/Olympus' });
    expect(out).toBe(html);
    expect(() => localizeReportTimes(html, { locale: '', timeZone: '' })).not.toThrow();
    expect(localizeReportTimes('<time datetime="nope">x</time>', { locale: 'en-US', timeZone: 'UTC' })).toBe('<time datetime="nope">x</time>');
  });

  it('keeps a valid locale and zone and replaces what is not one', () => {
    expect(resolveReaderTime({ locale: 'de-DE', timeZone: 'Europe/Berlin' })).toEqual({ locale: 'de-DE', timeZone: 'Europe/Berlin' });
    expect(resolveReaderTime({ locale: 'not a locale!!', timeZone: 'Mars/Olympus' })).toEqual({ locale: 'en-GB', timeZone: 'UTC' });
    expect(resolveReaderTime({ locale: 42, timeZone: undefined })).toEqual({ locale: 'en-GB', timeZone: 'UTC' });
  });
});
