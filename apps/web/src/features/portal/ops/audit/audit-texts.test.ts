import { describe, expect, it } from 'vitest';
import { auditQuery, dayToIso, detailLines } from './audit-texts.ts';

describe('audit log texts', () => {
  it('shows details as key: value text', () => {
    expect(detailLines({ route: '/operator/runs', statusCode: 200, nested: { a: '<b>' } })).toEqual([
      ['route', '/operator/runs'],
      ['statusCode', '200'],
      ['nested', '{"a":"<b>"}'],
    ]);
    expect(detailLines(null)).toEqual([]);
  });

  it('turns picked days into the start and the end of those days', () => {
    const start = dayToIso('2026-11-23')!;
    const end = dayToIso('2026-11-23', true)!;
    expect(Date.parse(end) - Date.parse(start)).toBe(24 * 3600 * 1000 - 1);
    expect(dayToIso('yesterday')).toBeUndefined();
  });

  it('builds the API query from the address', () => {
    const q = auditQuery(new URLSearchParams('type=login&address=%201.2.3.4%20&page=3&from=bad'));
    expect(q).toEqual({ type: 'login', clientId: undefined, userId: undefined, address: '1.2.3.4', page: 3, pageSize: 50 });
  });

  it('hides page views unless the address shows them', () => {
    expect(auditQuery(new URLSearchParams('')).pageViews).toBeUndefined();
    expect(auditQuery(new URLSearchParams('pageViews=show')).pageViews).toBe('show');
    expect(auditQuery(new URLSearchParams('pageViews=yes')).pageViews).toBeUndefined();
  });
});
