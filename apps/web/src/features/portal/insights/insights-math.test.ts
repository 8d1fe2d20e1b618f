import { loadInsight, type Insights } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { formatBytes, formatMs, formatPointMs, formatRate, loadSummary, NO_VALUE, noAlerts, presentInsightKeys, requestsOverview, zapBar } from './insights-math.ts';

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
    expect([0, 180_000, 5_400_000].map(formatBytes)).toEqual(['0 B', '180 kB', '5.4 MB']);
  });

  it('writes trend labels short, and tells an empty scan apart', () => {
    expect(formatRate(98.456)).toBe('98.5%');
    expect([320, 1234].map(formatMs)).toEqual(['320\u00a0ms', '1.2\u00a0s']);
    expect([580.692, 28.025, 0.868].map(formatPointMs)).toEqual(['581', '28', '0.9']);
    expect(noAlerts({ High: 0, Medium: 0, Low: 0, Informational: 0, 'False Positives': 0 })).toBe(true);
    expect(noAlerts({ High: 0, Medium: 0, Low: 0, Informational: 0, 'False Positives': 1 })).toBe(false);
  });
});
