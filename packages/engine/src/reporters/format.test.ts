import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDuration, formatPercent, formatRate } from './format.ts';

describe('report number formatting', () => {
  it('writes durations as a person would', () => {
    const expected: [number, string][] = [
      [20.589947000145912, '21 ms'], [340, '340 ms'], [999.7, '1 s'], [1234, '1.2 s'], [12_400, '12 s'],
      [125_000, '2 min 5 s'], [120_000, '2 min'], [3_840_000, '1 h 4 min'], [0.3, '< 1 ms'], [0, '0 ms'],
      [Number.NaN, '–'], [-5, '–'],
    ];
    for (const [ms, text] of expected) expect(formatDuration(ms)).toBe(text);
  });

  it('writes sizes with a unit', () => {
    const expected: [number, string][] = [[512, '512 B'], [14_200, '14 kB'], [1_400_000, '1.4 MB'], [999_999, '1 MB'], [2_500_000_000, '2.5 GB']];
    for (const [bytes, text] of expected) expect(formatBytes(bytes)).toBe(text);
  });

  it('writes percentages, counts and rates', () => {
    const percents: [number, string][] = [[0, '0%'], [0.01, '< 0.1%'], [2.54, '2.5%'], [100, '100%']];
    for (const [value, text] of percents) expect(formatPercent(value)).toBe(text);
    expect(formatCount(1, 'request')).toBe('1 request');
    expect(formatCount(1204, 'request')).toBe('1,204 requests');
    expect(formatCount(2, 'property', 'properties')).toBe('2 properties');
    expect(formatRate(12.46)).toBe('12.5 requests/s');
  });
});
