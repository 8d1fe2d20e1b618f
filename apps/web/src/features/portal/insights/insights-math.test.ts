import { loadInsight, type Insights } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { formatBytes, loadSummary, NO_VALUE, presentInsightKeys, requestsOverview, zapBar } from './insights-math.ts';

describe('insights maths', () => {
  it('gives success and failed rates with two decimals', () => {
    const summary = loadSummary(
      loadInsight.parse({ totalRequests: 3, successfulRequests: 2, failedRequestsCount: 1, failedRequestsRate: 33.3333 }),
    );
    expect(summary).toEqual({ totalRequests: 3, successRate: '66.67%', failedRate: '33.33%', thresholdMet: 'No' });
  });

  it('shows a dash, not NaN, when there were no requests', () => {
    const summary = loadSummary(loadInsight.parse({}));
    expect(summary.successRate).toBe(NO_VALUE);
    expect(summary.failedRate).toBe(NO_VALUE);
    expect(JSON.stringify(summary)).not.toContain('NaN');
  });

  it('says Yes when the custom metric threshold was met', () => {
    expect(loadSummary(loadInsight.parse({ customMetricThresholdMet: true })).thresholdMet).toBe('Yes');
  });

  it('keeps the spec order of cards and leaves out keys without data', () => {
    const data: Insights = {
      'security-report': { totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0, duration: 2 },
      load: loadInsight.parse({}),
    };
    expect(presentInsightKeys(data)).toEqual(['load', 'security-report']);
    expect(presentInsightKeys({})).toEqual([]);
    expect(presentInsightKeys(undefined)).toEqual([]);
  });

  it('builds the chart rows from the load and zap data', () => {
    expect(requestsOverview(loadInsight.parse({ totalRequests: 5, successfulRequests: 4, failedRequestsCount: 1 }))).toEqual([
      { name: 'Total', value: 5 },
      { name: 'Success', value: 4 },
      { name: 'Failed', value: 1 },
    ]);
    expect(zapBar({ High: 1, Medium: 2, Low: 3, Informational: 4, 'False Positives': 5 })[0]).toMatchObject({ High: 1, 'False Positives': 5 });
  });

  it('writes bytes in decimal units for the axis', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(180_000)).toBe('180 kB');
    expect(formatBytes(5_400_000)).toBe('5.4 MB');
  });
});
