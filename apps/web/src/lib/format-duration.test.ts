import { describe, expect, it } from 'vitest';
import { formatDuration } from './format-duration.ts';

/** Milliseconds and how they read. */
const READINGS: [number, string][] = [
  [0, '0 ms'],
  [20.589947000145912, '21 ms'],
  [340, '340 ms'],
  [340.4, '340 ms'],
  [999.4, '999 ms'],
  [999.6, '1 s'],
  [1234, '1.2 s'],
  [2000, '2 s'],
  [12_400, '12 s'],
  [42_400, '42 s'],
  [59_600, '1 min'],
  [120_000, '2 min'],
  [125_000, '2 min 5 s'],
  [3_600_000, '1 h'],
  [3_780_000, '1 h 3 min'],
  [3_840_000, '1 h 4 min'],
];

describe('formatDuration', () => {
  it('reads in the unit a person expects, never with raw decimals', () => {
    for (const [ms, text] of READINGS) expect(formatDuration(ms)).toBe(text);
  });

  it('shows what it was given for a missing or impossible value', () => {
    expect(formatDuration(null)).toBe('');
    expect(formatDuration(undefined, '–')).toBe('–');
    for (const impossible of [-5, Number.NaN]) expect(formatDuration(impossible, '–')).toBe('–');
  });
});
