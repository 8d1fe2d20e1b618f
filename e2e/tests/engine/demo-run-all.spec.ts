import { apiPaths, paths, RUN_REPORT_NAME, type Insights, type ReportGroups } from '@fullstop/contracts';
import { expect, test } from '../../support/portal.ts';
import { zipEntryNames } from '../../support/zip.ts';

/** The whole demo suite runs against this server; on 2 shared cores it takes well under this. */
const RUN_ALL_BUDGET_MS = 240_000;

test.describe.configure({ mode: 'serial' });

test('the demo’s "Run all tests" fills the four insights, and every report format downloads and opens', async ({ page, demoSession }) => {
  test.setTimeout(RUN_ALL_BUDGET_MS + 60_000);
  const auth = { authorization: `Bearer ${demoSession.accessToken}` };

  // The call the portal's "Run All Tests" button makes: queued at once, with the message the alert shows.
  const started = Date.now();
  const queued = await page.request.get(apiPaths.runAllTests, { headers: auth });
  expect(queued.status()).toBe(200);
  const { message, runId } = (await queued.json()) as { message: string; runId: string };
  expect(message).toBe(`All tests queued: 9 tests (run ${runId})`);
  expect(Date.now() - started).toBeLessThan(5000);

  await expect
    .poll(async () => (await (await page.request.get(`/test/runs/${runId}`, { headers: auth })).json()).status as string, {
      timeout: RUN_ALL_BUDGET_MS,
      intervals: [2000],
    })
    .toMatch(/^(passed|failed)$/);
  test.info().annotations.push({ type: 'run-all seconds', description: ((Date.now() - started) / 1000).toFixed(1) });

  const insights = (await (await page.request.get(apiPaths.insights, { headers: auth })).json()) as Insights;
  expect(Object.keys(insights).sort()).toEqual(['frontend-report', 'load', 'security-report', 'zap']);
  expect(insights.load!.totalRequests).toBeGreaterThan(0);
  expect(insights.load!.successfulRequests + insights.load!.failedRequestsCount).toBe(insights.load!.totalRequests);
  expect(insights['frontend-report']!.totalTests).toBeGreaterThan(0);
  expect(insights['security-report']!.totalTests).toBeGreaterThan(0);
  expect(Object.keys(insights.zap!).sort()).toEqual(['False Positives', 'High', 'Informational', 'Low', 'Medium']);

  // Every report, every format: the right type, and each one opens. The nine tests' reports and the run report
  // of this Run all (the worker writes it just after the run ends).
  const listed = async () => (await (await page.request.get(apiPaths.reports, { headers: auth })).json()) as ReportGroups;
  await expect.poll(async () => Object.values(await listed()).flatMap((group) => Object.keys(group)), { timeout: 60_000 }).toContain(RUN_REPORT_NAME);
  const entries = Object.values(await listed()).flatMap((group) => Object.entries(group));
  expect(entries).toHaveLength(10);
  const seen = new Set<string>();
  await page.setExtraHTTPHeaders(auth);
  for (const [name, report] of entries) {
    for (const { format } of report.formats ?? []) {
      seen.add(format);
      const url = `/report/fetch/${encodeURIComponent(name)}/${format}`;
      const res = await page.request.get(url, { headers: auth });
      expect(res.status(), `${name} ${format}`).toBe(200);
      const body = await res.body();
      if (format === 'json') {
        expect(res.headers()['content-type']).toBe('application/json; charset=utf-8');
        expect(JSON.parse(body.toString('utf8')).testName).toBe(name);
      } else if (format === 'html') {
        expect(res.headers()['content-type']).toContain('text/html');
        await page.goto(url);
        await expect(page.getByRole('heading', { level: 1 })).toContainText(name === RUN_REPORT_NAME ? 'all tests' : name);
      } else if (format === 'zip') {
        expect(res.headers()['content-type']).toBe('application/zip');
        expect(zipEntryNames(body)).toEqual(expect.arrayContaining(['report.json', 'report.html']));
      } else if (format === 'pdf') {
        expect(res.headers()['content-type']).toBe('application/pdf');
        expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      } else if (format === 'xml') {
        expect(res.headers()['content-type']).toBe('application/xml');
        expect(body.toString('utf8')).toMatch(/^<\?xml[^>]*>\s*<testsuites /);
      }
    }
  }
  expect([...seen].sort()).toEqual(['html', 'json', 'pdf', 'xml', 'zip']);
});

test('the portal then shows the four insight cards and the suite with its Run All Tests button', async ({ demoPage: page }) => {
  await page.goto(paths.insights);
  for (const title of ['Load Insights', 'Zap Insights', 'Frontend Test Insights', 'Security Test Insights']) {
    await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
  }
  await page.goto(paths.tests);
  await expect(page.getByRole('button', { name: 'Run All Tests' })).toBeVisible();
  await expect(page.getByText('Frontend').first()).toBeVisible();
});
