import { describe, expect, it } from 'vitest';
import {
  accessibilitySample,
  apiSample,
  browserSample,
  errorSample,
  lighthouseSample,
  loadSample,
  mobileSample,
  runSample,
  securityScanSample,
} from './fixtures.ts';
import { renderReportHtml } from './html/render-report.ts';
import { renderRunReportHtml } from './html/render-run-report.ts';
import { wcagLabel } from '../runners/accessibility/report.ts';
import { localizeReportTimes } from './report-time.ts';
import type { RunReport } from './types.ts';

/** The main body: everything before the collapsed appendix. */
const mainBody = (html: string) => html.slice(0, html.indexOf('<details><summary>Appendix'));

describe('html report', () => {
  it('opens with the client, target, time and the verdict in words', () => {
    const html = renderReportHtml(browserSample());
    expect(html).toContain('<h1>Checkout flow</h1>');
    expect(html).toContain('1 of 5 cases failed');
    expect(html).toContain('Acme Shop');
    expect(html).toContain('https://shop.acme.test');
    expect(html).toContain('<time datetime="2026-11-23T10:42:05.120Z">23 Nov 2026, 10:42 UTC</time>');
    expect(renderReportHtml(errorSample())).toContain('The test could not run: target policy: shop.acme.test resolves to a private address');
  });

  it('writes human durations, failures first, and keeps attempts and hosts in the collapsed appendix', () => {
    const html = renderReportHtml(browserSample(), { logs: ['', 'started on vm:14107:worker-3'] });
    const body = mainBody(html);
    expect(body).toContain('21 ms');
    expect(body).toContain('31 s');
    expect(body).toContain('2.3 s');
    expect(html).not.toContain('20.589');
    expect(body.indexOf('Failures (1)')).toBeLessThan(body.indexOf('All cases (5)'));
    expect(body.indexOf('pays by card')).toBeLessThan(body.indexOf('shows the catalogue'));
    expect(body).not.toContain('vm:14107');
    expect(body).not.toMatch(/attempt 1 of 2/);
    expect(html).toContain('attempt 1 of 2 on vm:14107');
    expect(html).toContain('started on vm:14107:worker-3');
  });

  it('shows a failed browser case with its steps, error, screenshot and trace link', () => {
    const r = browserSample();
    const shot = 'data:image/jpeg;base64,AAAA';
    const html = renderReportHtml(r, { image: (p) => (p === 'test-results/checkout-pays-by-card/test-failed-1.png' ? shot : undefined) });
    expect(html).toContain('Received: &quot;Payment declined&quot;');
    expect(html).toContain('Steps (3)');
    expect(html).toContain('click &quot;Pay now&quot;');
    expect(html).toContain(`<img class="shot" src="${shot}"`);
    expect(html).toContain('data-trace="test-results/checkout-pays-by-card/trace.zip">Open trace in the portal');
    const without = renderReportHtml(r);
    expect(without).toContain('Screenshot in the zip report');
  });

  it('shows what an api check expected and what came back', () => {
    const html = renderReportHtml(apiSample());
    expect(html).toContain('<b>Expected</b> status 401 / <b>got</b> status 500');
    expect(html).toContain('1 of 3 checks failed');
  });

  it('groups accessibility violations by rule with impact, elements and WCAG reference', () => {
    const html = renderReportHtml(accessibilitySample());
    expect(html).toContain('Images must have alternative text');
    expect(html).toContain('<code>img.hero</code>');
    expect(html).toContain('WCAG 2 A, WCAG 1.1.1');
    expect(html).toContain('WCAG 2 AA, WCAG 1.4.3');
    expect(html).toContain('rel="noreferrer noopener"');
    expect(html.indexOf('badge i-critical')).toBeLessThan(html.indexOf('badge i-serious'));
    expect(html).toContain('page answered 404');
    expect(wcagLabel('wcag21aa')).toBe('WCAG 2.1 AA');
    expect(wcagLabel('wcag1412')).toBe('WCAG 1.4.12');
    expect(wcagLabel('cat.color')).toBeNull();
  });

  it('draws the four Lighthouse scores as gauges coloured by band, with the top opportunities', () => {
    const html = renderReportHtml(lighthouseSample());
    expect(html.match(/<div class="gauge">/g)).toHaveLength(8);
    expect(html).toContain('aria-label="Performance: 42"');
    expect(html).toMatch(/fill="#cf222e"[^>]*>42</);
    expect(html).toMatch(/fill="#b05e00"[^>]*>78</);
    expect(html).toMatch(/fill="#0a7f3f"[^>]*>100</);
    expect(html).toContain('Properly size images');
    expect(html).toContain('1.4 MB');
    expect(html).toContain('1 of 2 pages below the score thresholds');
  });

  it("shows the load test's figures, thresholds met and missed, failures by URL and a per-second chart", () => {
    const html = renderReportHtml(loadSample());
    expect(html).toContain('1 of 3 thresholds missed');
    expect(html).toMatch(/b-missed">missed<\/span><\/td><td>95th percentile response time<br><span class="muted small">limit: at most 300 ms<\/span><\/td><td class="num">340 ms/);
    expect(html).toContain('at least 150 requests/s');
    expect(html).toContain('49 MB');
    expect(html).toContain('52 requests (0.8%)');
    expect(html).toContain('HTTP 503');
    expect(html).toContain('<svg viewBox="0 0 720');
    expect(html).toContain('Requests per second');
    expect(html).toMatch(/p95 \(peak \d+ ms\)/);
    expect(html).toContain('>400</text>');
  });

  it('names the generators of a load test run by several, where each ran and its requests', () => {
    const sample = loadSample();
    if (sample.summary?.kind !== 'load') throw new Error('not a load sample');
    sample.summary.generators = [
      { index: 0, workerId: 'host-a:101:abc', host: 'host-a', requests: 6000 },
      { index: 1, workerId: 'host-b:202:def', host: 'host-b', requests: 5913 },
    ];
    const html = renderReportHtml(sample);
    expect(html).toContain('Generators: 2');
    expect(html).toContain('2 generators ran this test together');
    expect(html).toMatch(/host-a:101:abc.*host-a.*6,000 requests/s);
    expect(html).toContain('host-b:202:def');
    expect(renderReportHtml(loadSample())).not.toContain('Generators:');
  });

  it('groups security alerts by rule, worst first, with the false positives apart', () => {
    const html = renderReportHtml(securityScanSample());
    // Four instances of three rules: three alerts, as ZAP's summary counts them.
    expect(html).toContain('Failed with 3 alerts: 1 High, 1 Medium, 1 Low');
    expect(html.indexOf('Cross Site Scripting')).toBeLessThan(html.indexOf('Content Security Policy (CSP) Header Not Set'));
    expect(html).toContain('2 instances');
    expect(html).toContain('How to fix:</b> Set the Content-Security-Policy header');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Marked as false positives (1 alert, 1 instance)');
    expect(html).toContain('marked false positives');
  });

  it("shows the mobile app's name, version, package, SDK levels and permissions", () => {
    const html = renderReportHtml(mobileSample());
    for (const text of ['Acme Shop', 'test.acme.shop', '3.4.1 (build 341)', 'API 24', 'API 34', 'CAMERA', 'asks the user', 'Android app is debuggable']) {
      expect(html).toContain(text);
    }
  });

  it('keeps hostile strings inert: no script, no new element, no way out of the style', () => {
    const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(1)></style><style>*{display:none}</style>';
    const r: RunReport = {
      ...accessibilitySample(),
      clientName: hostile,
      testName: hostile,
      group: hostile,
      target: hostile,
      error: hostile,
    };
    const pages = r.summary!.kind === 'accessibility' ? r.summary!.pages : [];
    pages[0]!.url = hostile;
    pages[0]!.violations![0]!.help = hostile;
    pages[0]!.violations![0]!.targets = [hostile];
    pages[0]!.violations![0]!.helpUrl = 'javascript:alert(1)';
    const scan = securityScanSample();
    if (scan.summary?.kind === 'security-scan') scan.summary.findings.push({ ruleId: hostile, name: hostile, risk: 'High', url: hostile, evidence: hostile, solution: hostile });
    const browser = browserSample();
    if (browser.summary?.kind === 'browser') browser.summary.cases.push({ name: hostile, status: 'failed', durationMs: 1, error: hostile, steps: [{ title: hostile, durationMs: 1, error: hostile }], screenshot: hostile, trace: hostile });
    const logs = [hostile, hostile];
    for (const html of [
      renderReportHtml(r, { logs }),
      renderReportHtml(scan),
      renderReportHtml(browser, { logs }),
      renderRunReportHtml({ ...runSample(), clientName: hostile, tests: [r, scan, browser] }),
    ]) {
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img(?![^>]*src="data:image\/)/i);
      expect(html.match(/<style/g)).toHaveLength(1);
      expect(html.match(/<\/style>/g)).toHaveLength(1);
      expect(html).not.toMatch(/href="(?!#|https?:)/);
      expect(html).not.toContain('javascript:alert');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;/style&gt;');
    }
  });

  it('loads nothing from outside: no scripts, no external sources, only data: images', () => {
    for (const html of [renderReportHtml(loadSample()), renderRunReportHtml(runSample())]) {
      expect(html).not.toMatch(/<script|<link|<iframe|url\(|@import/i);
      expect(html).not.toMatch(/src="(?!data:)/);
      expect(html).toContain('@page{size:A4;margin:14mm}');
    }
  });

  it("rewrites the report's times in the reader's locale", () => {
    const html = localizeReportTimes(renderReportHtml(browserSample()), { locale: 'en-US', timeZone: 'America/Los_Angeles' });
    expect(html).toContain('<time datetime="2026-11-23T10:42:05.120Z">Nov 23, 2026, 02:42 AM PST</time>');
    expect(html).not.toContain('10:42 UTC');
  });
});

describe('run report', () => {
  it('sums up every test, failures first, each condensed, the appendix collapsed', () => {
    const sample = runSample();
    const html = renderRunReportHtml(sample);
    // One sample test of every kind: all fail but the security checks (passed) and the soak test (could not run).
    const n = sample.tests.length;
    expect(html).toContain(`${n - 2} of ${n} tests failed, 1 could not run`);
    expect(html).toContain('from the portal');
    expect(html).toContain('4 min 12 s');
    const table = html.slice(html.indexOf(`<h2>Tests (${n})</h2>`), html.indexOf('</table>', html.indexOf(`<h2>Tests (${n})</h2>`)));
    expect(table.match(/<tr>/g)).toHaveLength(n + 1);
    expect(table.indexOf('Soak test')).toBeLessThan(table.indexOf('Checkout flow'));
    expect(table.indexOf('Checkout flow')).toBeLessThan(table.indexOf('Headers and TLS'));
    expect(table).toContain('p95 340 ms, 208 requests/s');
    expect(table).toContain('Performance 42, Accessibility 91, Best practices 78, SEO 92');
    expect(html).toContain('<section id="test-6" class="test-section">');
    expect(html).toContain('Failures (1)');
    expect(html).toContain('passed.</p>');
    expect(mainBody(html)).not.toContain('vm:14107');
    expect(html).toContain('<details><summary>Appendix');
  });

  it('says so when every test passed', () => {
    const passed = { ...apiSample(), status: 'passed' as const, totals: { totalTests: 3, passedTests: 3, failedTests: 0, skippedTests: 0 } };
    expect(renderRunReportHtml({ ...runSample(), tests: [passed, passed] })).toContain('All 2 tests passed');
  });
});
