import { describe, expect, it } from 'vitest';
import { loadInsight, zapInsight } from './insights.ts';

describe('insight schemas', () => {
  it('fills every missing load field with 0 or false, as the portal expects', () => {
    const load = loadInsight.parse({ totalRequests: 10 });
    expect(load.totalRequests).toBe(10);
    expect(load.failedRequestsRate).toBe(0);
    expect(load.customMetricThresholdMet).toBe(false);
  });

  it('keeps the spaced "False Positives" key of the zap card', () => {
    expect(zapInsight.parse({ 'False Positives': 2 })['False Positives']).toBe(2);
  });
});
