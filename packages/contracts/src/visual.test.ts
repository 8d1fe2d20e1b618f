import { describe, expect, it } from 'vitest';
import { visualBaselineFile, visualBaselineKey, visualBaselineKeyString, visualCandidates, visualShare, type VisualShot } from './visual.ts';

describe('visual baseline keys', () => {
  const shot = { test: 'Home looks right', page: '/pricing', engine: 'firefox', device: 'phone' };

  it('names a shot the same way every time, readable and safe as a file name', () => {
    // A fixed value: the engine and the server make keys apart, and a key stored today must match one made later.
    expect(visualBaselineKey(shot)).toBe('pricing.firefox-phone.cc4d37ffe5ee0242');
    expect(visualBaselineFile(visualBaselineKey(shot))).toBe('pricing.firefox-phone.cc4d37ffe5ee0242.png');
  });

  it('tells apart every part, even when the readable parts look alike', () => {
    const keys = [
      shot,
      { ...shot, test: 'Other test' },
      { ...shot, page: '/Pricing' },
      { ...shot, page: '/pricing/' },
      { ...shot, engine: 'chromium' },
      { ...shot, device: 'desktop' },
    ].map(visualBaselineKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps hostile page names out of paths and within the key pattern', () => {
    for (const page of ['/', '../../etc/passwd', 'https://shop.acme.test/a?b=c#d', '<img src=x>', 'ü'.repeat(300), '/'.repeat(500)]) {
      const key = visualBaselineKey({ ...shot, page });
      expect(key, page).toMatch(/^[a-z0-9.-]+$/);
      expect(key.includes('..'), page).toBe(false);
      expect(visualBaselineKeyString.safeParse(key).success, page).toBe(true);
    }
    expect(visualBaselineKey({ ...shot, page: '/' })).toMatch(/^home\./);
    expect(visualBaselineKeyString.safeParse('../x.png').error?.issues[0]?.message).toBe('key is not a visual baseline key');
  });
});

describe('visual shots in words', () => {
  it('says a share of pixels as a reader would', () => {
    expect([0, 0.00004, 0.0042, 0.001, 0.25].map(visualShare)).toEqual(['0%', '< 0.01%', '0.42%', '0.10%', '25.0%']);
  });

  it('offers one candidate per key: the new and changed shots the runner marked', () => {
    const image = { path: 'visual/a/current.png', sha256: 'a'.repeat(64), width: 10, height: 10 };
    const base = { page: '/', url: 'http://x/', cell: 'chromium/desktop', engine: 'chromium', device: 'desktop', network: 'none', tolerance: 0, captures: 2, durationMs: 1 };
    const shots: VisualShot[] = [
      { ...base, key: 'a', status: 'new', candidate: true, current: image },
      { ...base, key: 'a', status: 'new', candidate: false, current: image, network: 'slow-3g' },
      { ...base, key: 'b', status: 'unchanged', candidate: false, current: image },
      { ...base, key: 'c', status: 'failed', candidate: false, reason: 'the page never settled' },
    ];
    expect(visualCandidates({ shots }).map((s) => s.key)).toEqual(['a']);
  });
});
