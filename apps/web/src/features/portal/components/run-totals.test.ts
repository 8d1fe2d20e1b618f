import { describe, expect, it } from 'vitest';
import { runTotalsWords } from './run-totals.ts';

describe('runTotalsWords', () => {
  it('counts skipped tests apart, not as missed passes', () => {
    expect(runTotalsWords({ totalTests: 49, passedTests: 45, failedTests: 0, skippedTests: 4 })).toBe('45 passed, 4 skipped');
    expect(runTotalsWords({ totalTests: 49, passedTests: 40, failedTests: 5, skippedTests: 4 })).toBe('40 passed, 5 failed, 4 skipped');
  });

  it('says "N of M passed" when every test ran', () => {
    expect(runTotalsWords({ totalTests: 28, passedTests: 24, failedTests: 4, skippedTests: 0 })).toBe('24 of 28 passed, 4 failed');
    expect(runTotalsWords({ totalTests: 28, passedTests: 28, failedTests: 0, skippedTests: 0 })).toBe('28 of 28 passed');
    expect(runTotalsWords(null)).toBeNull();
  });
});
