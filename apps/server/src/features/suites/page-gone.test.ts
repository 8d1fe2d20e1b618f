import { describe, expect, it } from 'vitest';
import { OutboundUnreachableError } from '../../lib/outbound-http.ts';
import { askWhetherGone } from './page-gone.ts';

const target = { baseUrl: 'https://shop.example/', allowedOrigins: [], allowPrivateAddresses: false };

describe('whether a page is gone', () => {
  it('is gone only when it answers 404 or 410 twice; says what it answered and when', async () => {
    const answers: Record<string, number[]> = { '/old-pricing': [404, 404], '/flaky': [404, 200], '/broken': [500], '/moved': [301], '/retired': [410, 404] };
    const asked: string[] = [];
    const ask = async (url: string) => {
      asked.push(url);
      const path = new URL(url).pathname;
      if (path === '/down') throw new OutboundUnreachableError('connect ECONNREFUSED');
      return answers[path]!.shift()!;
    };
    const verdicts = await askWhetherGone(target, ['/old-pricing', '/flaky', '/broken', '/moved', '/retired', '/down', '/#/about'], { pauseMs: 0, ask });
    expect(verdicts.get('/old-pricing')).toEqual({ gone: true, says: expect.stringMatching(/^\/old-pricing answered 404 twice, at \d\d:\d\d:\d\d and \d\d:\d\d:\d\d UTC$/) });
    expect(verdicts.get('/retired')).toEqual({ gone: true, says: expect.stringMatching(/^\/retired answered 410 at \d\d:\d\d:\d\d and 404 at \d\d:\d\d:\d\d UTC$/) });
    expect(verdicts.get('/flaky')).toEqual({ gone: false, says: '/flaky answered 404, then 200 0 s later' });
    expect(verdicts.get('/broken')).toEqual({ gone: false, says: '/broken answered 500' });
    expect(verdicts.get('/moved')).toEqual({ gone: false, says: '/moved answered 301' });
    expect(verdicts.get('/down')).toEqual({ gone: false, says: '/down could not be asked (connect ECONNREFUSED)' });
    expect(verdicts.get('/#/about')!.gone).toBe(false);
    // Only the website's own addresses, a hash route never; a second question only after a first "gone".
    expect(asked.every((u) => u.startsWith('https://shop.example/'))).toBe(true);
    expect(asked.filter((u) => u.endsWith('/broken'))).toHaveLength(1);
    expect(asked.some((u) => u.includes('#'))).toBe(false);
  });

  it('never asks another origin, whatever the path says', async () => {
    const asked: string[] = [];
    const verdicts = await askWhetherGone(target, ['//evil.example/x'], { pauseMs: 0, ask: async (u) => (asked.push(u), 404) });
    expect(asked).toEqual([]);
    expect(verdicts.get('//evil.example/x')).toEqual({ gone: false, says: '//evil.example/x could not be asked (not on the website)' });
  });
});
