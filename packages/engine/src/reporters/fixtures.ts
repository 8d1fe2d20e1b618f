/**
 * Sample reports of every kind, for the reporters' tests, the bench and looking at the pages. Not used at run time.
 */
import type { CaseResult, RunnerSummary } from '../types.ts';
import type { RunReport, RunSummaryReport } from './types.ts';

const base = (over: Partial<RunReport>): RunReport => ({
  clientName: 'Acme Shop',
  testName: 'sample',
  group: 'Frontend',
  kind: 'browser',
  runId: '6f1c2d9e-1b7a-4c55-9d0e-2a1b3c4d5e6f',
  status: 'passed',
  totals: { totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0 },
  durationMs: 12_345.678,
  startedAt: '2026-11-23T10:42:05.120Z',
  finishedAt: '2026-11-23T10:42:17.466Z',
  target: 'https://shop.acme.test',
  summary: null,
  error: null,
  artifacts: [],
  attempts: [
    { attempt: 1, status: 'failed', startedAt: '2026-11-23T10:40:00.000Z', finishedAt: '2026-11-23T10:41:00.000Z', error: 'attempt 1 of 2 on vm:14107:worker-3 timed out', logPath: null },
    { attempt: 2, status: 'passed', startedAt: '2026-11-23T10:42:05.120Z', finishedAt: '2026-11-23T10:42:17.466Z', error: null, logPath: null },
  ],
  ...over,
});

export function browserSample(): RunReport {
  return base({
    testName: 'Checkout flow',
    status: 'failed',
    totals: { totalTests: 5, passedTests: 3, failedTests: 1, skippedTests: 1 },
    summary: {
      kind: 'browser',
      cases: [
        { name: 'home.spec.ts › shows the catalogue', status: 'passed', durationMs: 20.589947000145912 },
        {
          name: 'checkout.spec.ts › pays by card',
          status: 'failed',
          durationMs: 31_204.2,
          error: "Error: expect(locator).toHaveText(expected)\n\nExpected: \"Thank you\"\nReceived: \"Payment declined\"\n\n  at checkout.spec.ts:42:7",
          steps: [
            { title: 'page.goto(/cart)', durationMs: 812 },
            { title: 'click "Pay now"', durationMs: 230 },
            { title: 'expect(locator).toHaveText("Thank you")', durationMs: 30_000, error: 'Timed out 30000ms waiting for expect(locator).toHaveText' },
          ],
          screenshot: 'test-results/checkout-pays-by-card/test-failed-1.png',
          trace: 'test-results/checkout-pays-by-card/trace.zip',
        },
        { name: 'checkout.spec.ts › applies a voucher', status: 'passed', durationMs: 2_300 },
        { name: 'search.spec.ts › finds a product', status: 'passed', durationMs: 1_180.4 },
        { name: 'account.spec.ts › deletes the account', status: 'skipped', durationMs: 0 },
      ],
    },
  });
}

/** A report of a case-list kind, its totals counted from its cases. */
function casesSample(kind: 'api' | 'security-checks', group: string, testName: string, cases: CaseResult[]): RunReport {
  const count = (status: CaseResult['status']) => cases.filter((c) => c.status === status).length;
  const failedTests = count('failed');
  return base({
    kind,
    group,
    testName,
    status: failedTests > 0 ? 'failed' : 'passed',
    totals: { totalTests: cases.length, passedTests: count('passed'), failedTests, skippedTests: count('skipped') },
    summary: { kind, cases },
  });
}

export function apiSample(): RunReport {
  return casesSample('api', 'Backend', 'Public API', [
    { name: 'GET /api/products answers 200', status: 'passed', durationMs: 88, expected: 'status 200', actual: 'status 200' },
    { name: 'POST /api/cart without a token', status: 'failed', durationMs: 140, expected: 'status 401', actual: 'status 500', error: 'expected status 401, got 500' },
    { name: 'GET /api/health', status: 'passed', durationMs: 12 },
  ]);
}

export function securityChecksSample(): RunReport {
  return casesSample('security-checks', 'Security', 'Headers and TLS', [
    { name: 'Strict-Transport-Security is set', status: 'passed', durationMs: 310, expected: 'max-age ≥ 15552000', actual: 'max-age=31536000' },
    { name: 'Content-Security-Policy is set', status: 'passed', durationMs: 290, expected: 'present', actual: "default-src 'self'" },
  ]);
}

export function accessibilitySample(): RunReport {
  return base({
    kind: 'accessibility',
    testName: 'Accessibility of key pages',
    status: 'failed',
    summary: {
      kind: 'accessibility',
      pages: [
        {
          url: 'https://shop.acme.test/',
          passed: false,
          violationsByImpact: { critical: 1, serious: 1, moderate: 0, minor: 0 },
          violations: [
            { id: 'image-alt', impact: 'critical', help: 'Images must have alternative text', nodes: 3, targets: ['img.hero', '.card:nth-child(2) > img', '#logo'], tags: ['cat.text-alternatives', 'wcag2a', 'wcag111', 'section508'], helpUrl: 'https://dequeuniversity.com/rules/axe/4.11/image-alt' },
            { id: 'color-contrast', impact: 'serious', help: 'Elements must meet minimum color contrast ratio thresholds', nodes: 12, targets: ['.price', '.footer a'], tags: ['wcag2aa', 'wcag143'] },
          ],
        },
        {
          url: 'https://shop.acme.test/cart',
          passed: true,
          violationsByImpact: { critical: 0, serious: 0, moderate: 0, minor: 1 },
          violations: [{ id: 'region', impact: 'minor', help: 'All page content should be contained by landmarks', nodes: 1, tags: ['best-practice'] }],
        },
        { url: 'https://shop.acme.test/gone', passed: false, violationsByImpact: {}, violations: [], error: 'page answered 404' },
      ],
    },
  });
}

export function lighthouseSample(): RunReport {
  return base({
    kind: 'lighthouse',
    testName: 'Lighthouse: home',
    status: 'failed',
    summary: {
      kind: 'lighthouse',
      pages: [
        {
          url: 'https://shop.acme.test/',
          scores: { performance: 42, accessibility: 91, 'best-practices': 78, seo: 100 },
          passed: false,
          failedThresholds: ['performance 42 < 80'],
          opportunities: [
            { title: 'Properly size images', savingsMs: 1_850, savingsBytes: 1_420_000 },
            { title: 'Eliminate render-blocking resources', savingsMs: 640 },
            { title: 'Reduce unused JavaScript', savingsMs: 450, savingsBytes: 212_000 },
          ],
        },
        { url: 'https://shop.acme.test/about', scores: { performance: 96, accessibility: 100, 'best-practices': 96, seo: 92 }, passed: true },
      ],
    },
  });
}

export function loadSample(): RunReport {
  const perSecond = Array.from({ length: 30 }, (_, i) => {
    const requests = 180 + Math.round(60 * Math.sin(i / 4)) + (i > 20 ? 40 : 0);
    const errors = i > 22 ? 6 + (i % 3) : 0;
    const p50 = 40 + 10 * Math.sin(i / 3);
    return { second: i + 1, requests, errors, p50, p95: p50 * 3 + (i > 20 ? 140 : 0), p99: p50 * 5 + (i > 20 ? 300 : 0) };
  });
  const summary: RunnerSummary = {
    kind: 'load',
    load: {
      averageResponseTime: 61.23456,
      maxResponseTime: 672.0012,
      minResponseTime: 8.4,
      ninetyFifthPercentileResponseTime: 340.2,
      failedRequestsCount: 52,
      totalRequests: 6_240,
      successfulRequests: 6_188,
      dataSentBytes: 1_204_000,
      dataReceivedBytes: 48_900_000,
      failedRequestsRate: 0.8333,
      customMetricThresholdMet: false,
    },
    failuresByUrl: [
      { url: 'https://shop.acme.test/api/cart', status: 503, count: 40 },
      { url: 'https://shop.acme.test/', status: 'error', count: 12 },
    ],
    requestsPerSecond: 208,
    thresholdChecks: [
      { name: 'maxP95Ms', limit: 300, actual: 340.2, met: false },
      { name: 'maxFailedRate', limit: 1, actual: 0.8333, met: true },
      { name: 'minRequestsPerSecond', limit: 150, actual: 208, met: true },
    ],
    perSecond,
  };
  return base({ kind: 'load', group: 'Performance', testName: 'Peak traffic', status: 'failed', summary, durationMs: 30_512 });
}

export function securityScanSample(): RunReport {
  return base({
    kind: 'security-scan',
    group: 'Security',
    testName: 'Weekly scan',
    status: 'failed',
    summary: {
      kind: 'security-scan',
      findings: [
        { ruleId: '10038', name: 'Content Security Policy (CSP) Header Not Set', risk: 'Medium', url: 'https://shop.acme.test/', description: 'Content Security Policy is an added layer of security that helps to detect and mitigate attacks such as XSS.', solution: 'Set the Content-Security-Policy header on every page.' },
        { ruleId: '10038', name: 'Content Security Policy (CSP) Header Not Set', risk: 'Medium', url: 'https://shop.acme.test/cart' },
        { ruleId: '40012', name: 'Cross Site Scripting (Reflected)', risk: 'High', url: 'https://shop.acme.test/search', param: 'q', evidence: '<script>alert(1)</script>', description: 'A reflected XSS lets an attacker run script in a visitor\'s browser.', solution: 'Encode output; validate input.' },
        { ruleId: '10021', name: 'X-Content-Type-Options Header Missing', risk: 'Low', url: 'https://shop.acme.test/static/app.js', evidence: '' },
      ],
    },
    falsePositives: [{ ruleId: '10096', name: 'Timestamp Disclosure', risk: 'Informational', url: 'https://shop.acme.test/', evidence: '1700000000' }],
  });
}

export function mobileSample(): RunReport {
  return base({
    kind: 'mobile-static',
    group: 'Mobile',
    testName: 'Android build',
    status: 'failed',
    summary: {
      kind: 'mobile-static',
      app: {
        android: {
          package: 'test.acme.shop',
          versionName: '3.4.1',
          versionCode: 341,
          usesSdk: { minSdkVersion: 24, targetSdkVersion: 34 },
          usesPermissions: [{ name: 'android.permission.INTERNET' }, { name: 'android.permission.CAMERA' }, { name: 'android.permission.ACCESS_FINE_LOCATION' }],
          application: { label: 'Acme Shop', debuggable: true, allowBackup: true },
        },
      },
      findings: [
        { ruleId: 'mobile:debuggable', name: 'Android app is debuggable', risk: 'High', url: 'android://test.acme.shop', evidence: 'android:debuggable="true"', solution: 'Remove android:debuggable from release builds.' },
        { ruleId: 'mobile:allow-backup', name: 'Android app data can be backed up', risk: 'Medium', url: 'android://test.acme.shop', evidence: 'android:allowBackup="true"' },
      ],
    },
  });
}

export function errorSample(): RunReport {
  return base({ kind: 'load', testName: 'Soak test', status: 'error', error: 'target policy: shop.acme.test resolves to a private address (10.0.0.4)\nrefused by the policy', totals: { totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 } });
}

export function allSamples(): RunReport[] {
  return [browserSample(), apiSample(), securityChecksSample(), accessibilitySample(), lighthouseSample(), loadSample(), securityScanSample(), mobileSample(), errorSample()];
}

export function runSample(): RunSummaryReport {
  return {
    clientName: 'Acme Shop',
    runId: '0b4d6c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e',
    trigger: 'portal',
    startedAt: '2026-11-23T10:40:00.000Z',
    finishedAt: '2026-11-23T10:44:12.000Z',
    target: 'https://shop.acme.test',
    tests: allSamples(),
  };
}
