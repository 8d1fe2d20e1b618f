import type { Insights } from '@fullstop/contracts';

/** Insights of every kind, as a finished run would leave them: for pages and screenshots without a 3-minute run. */
export const SAMPLE_INSIGHTS: Insights = {
  load: {
    averageResponseTime: 42.5,
    maxResponseTime: 310,
    minResponseTime: 3,
    ninetyFifthPercentileResponseTime: 120,
    failedRequestsCount: 12,
    totalRequests: 1500,
    successfulRequests: 1488,
    dataSentBytes: 180_000,
    dataReceivedBytes: 5_400_000,
    failedRequestsRate: 0.8,
    customMetricThresholdMet: true,
  },
  zap: { High: 1, Medium: 3, Low: 6, Informational: 9, 'False Positives': 2 },
  'frontend-report': { totalTests: 24, passedTests: 21, failedTests: 2, skippedTests: 1, duration: 38.4 },
  'security-report': { totalTests: 12, passedTests: 11, failedTests: 1, skippedTests: 0, duration: 6.2 },
};
