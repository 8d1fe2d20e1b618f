import { apiPaths, historyRunPath, paths, RUN_REPORT_NAME, type Insights, type ReportGroups, type RunDetailResponse } from '@fullstop/contracts';
import type { Page } from '@playwright/test';
import { collectAlerts, expect, test } from '../../support/portal.ts';
import { shots } from '../../support/screenshots.ts';
import { zipEntryNames } from '../../support/zip.ts';

/**
 * One day of the demo client, in order: "Run All Tests" on the Tests page, then what that one run fills (the dashboard,
 * the four insights, every report in every format), then a single test run after it and History comparing the two.
 * One run of the whole suite serves them all: each of these once ran the suite itself, four runs of minutes each on the
 * one engine-runs worker (see playwright.config.ts), the longest stretch of the end-to-end stage.
 */
/**
 * How long the tests wait for the demo's whole suite before calling it stuck: not a speed limit. It takes about a minute
 * on an idle machine and 4 beside three busy loops (load average 9-12, 2026-11-30); CI's machine is shared, and a
 * budget of 4 minutes failed there once for the load alone.
 */
const RUN_ALL_BUDGET_MS = 600_000;
const DEMO_TESTS = 9;
/** The single test History's second run is: five page cases, one of the demo's lighter browser tests. */
const SINGLE_TEST = 'Marketing pages';

test.describe.configure({ mode: 'serial' });

/** The Run All the first test starts; the tests after it read what it left. */
let runAllId = '';

const authOf = (token: string) => ({ authorization: `Bearer ${token}` });

async function statusOf(page: Page, token: string, runId: string): Promise<string> {
  return ((await (await page.request.get(`/test/runs/${runId}`, { headers: authOf(token) })).json()) as { status: string }).status;
}

test('Run All Tests waits while its run goes, counting "n of m", then every test shows its last result and report', async ({
  demoPage: page,
  demoSession,
}) => {
  test.setTimeout(RUN_ALL_BUDGET_MS + 120_000);
  const alerts = collectAlerts(page);
  await page.goto(paths.tests);
  const runAll = page.getByRole('button', { name: 'Run All Tests' });
  // Another run of all of the demo keeps the button busy until it ends.
  await expect(runAll).toBeEnabled({ timeout: RUN_ALL_BUDGET_MS });
  const started = Date.now();
  await runAll.click();
  await expect.poll(() => alerts).toHaveLength(1);
  const queued = new RegExp(`^All tests queued: ${DEMO_TESTS} tests \\(run (\\S+)\\)$`).exec(alerts[0]!);
  expect(queued, alerts[0]).toBeTruthy();
  runAllId = queued![1]!;
  // Queued at once: the button's call does not wait for the run.
  expect(Date.now() - started).toBeLessThan(5000);

  const progress = page.getByTestId('run-all-progress');
  await expect(progress).toHaveText(new RegExp(`^Running \\d of ${DEMO_TESTS}…$`));
  await expect(runAll).toBeDisabled();
  await shots(page, 'tests-running');

  // The count goes up as tests end, and the button comes back when the last one did.
  await expect(progress).toHaveText(new RegExp(`^Running [1-${DEMO_TESTS - 1}] of ${DEMO_TESTS}…$`), { timeout: RUN_ALL_BUDGET_MS });
  await expect(runAll).toBeEnabled({ timeout: RUN_ALL_BUDGET_MS });
  await expect(progress).toHaveCount(0);
  expect(alerts).toHaveLength(1);
  // Every test of the demo's suite ran to a verdict: none "could not run".
  expect(await statusOf(page, demoSession.accessToken, runAllId)).toMatch(/^(passed|failed)$/);
  test.info().annotations.push({ type: 'run-all seconds', description: ((Date.now() - started) / 1000).toFixed(1) });

  // Each test: its status in words and its last result (when, how long) with its report. (Another spec may run
  // the demo's tests again meanwhile, so the status word may already be a newer run's: cancel-run.spec cancels one.)
  const rows = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Run Test' }) });
  await expect(rows).toHaveCount(DEMO_TESTS);
  for (const row of await rows.all()) {
    await expect(row.getByTestId('live-status')).toHaveText(/^(Passed|Failed|Could not run|Queued|Running|Cancelled)\b/);
    const last = row.getByTestId('last-result');
    await expect(last).toContainText(/\d{4}.*took \d+(\.\d)? (ms|s|min)/);
    await expect(last.getByRole('button', { name: 'Report' })).toBeVisible();
  }
  await shots(page, 'tests-after-run-all');

  // A test's latest report opens in a tab of its own, at the server's sandboxed view address.
  const row = page.getByRole('listitem').filter({ hasText: 'Home page load' });
  const opened = page.waitForEvent('popup');
  await row.getByRole('button', { name: 'Report' }).click();
  const tab = await opened;
  await expect.poll(() => tab.url()).toMatch(/\/report\/view\/Home%20page%20load\/html\?token=/);
  await expect(tab.getByRole('heading', { level: 1 })).toContainText('Home page load');
  await tab.close();
});

test('the dashboard home then shows that run, the failing tests and the security scan’s alerts by risk', async ({ demoPage: page }) => {
  await page.goto(paths.dashboard);
  const lastRun = page.getByRole('region', { name: 'Last run' });
  // The newest run: ours (all DEMO_TESTS), or a run of one test another spec of the shared demo account started since.
  await expect(lastRun).toContainText(/Passed|\d+ failed|could not run|Running|Queued/i);
  await expect(lastRun).toContainText(/\d+ (of \d+ )?(passed|done)/);
  await expect(lastRun.getByRole('link', { name: 'View run details' })).toHaveAttribute('href', /^\/dashboard\/history\/[0-9a-f-]{36}$/);
  const failing = page.getByRole('region', { name: /Failing tests/ });
  await expect(failing).toContainText(/No failing tests|failing as of/);
  const alerts = page.getByRole('region', { name: 'Alerts by risk' });
  await expect(alerts).toContainText(/No alerts found|\d+(High|Medium|Low|Informational)/);
  await shots(page, 'home-after-run-all');
});

test('that run fills the four insights, and every report format downloads and opens', async ({ page, demoSession }) => {
  const auth = authOf(demoSession.accessToken);
  const insights = (await (await page.request.get(apiPaths.insights, { headers: auth })).json()) as Insights;
  expect(Object.keys(insights).sort()).toEqual(['frontend-report', 'load', 'security-report', 'zap']);
  expect(insights.load!.totalRequests).toBeGreaterThan(0);
  expect(insights.load!.successfulRequests + insights.load!.failedRequestsCount).toBe(insights.load!.totalRequests);
  expect(insights['frontend-report']!.totalTests).toBeGreaterThan(0);
  expect(insights['security-report']!.totalTests).toBeGreaterThan(0);
  expect(Object.keys(insights.zap!).sort()).toEqual(['False Positives', 'High', 'Informational', 'Low', 'Medium']);

  // Every report, every format: the right type, and each one opens. The nine tests' reports and the run report
  // of the Run all (the worker writes it just after the run ends); the demo's trial runs of other specs add theirs.
  const listed = async () => (await (await page.request.get(apiPaths.reports, { headers: auth })).json()) as ReportGroups;
  await expect.poll(async () => Object.values(await listed()).flatMap((group) => Object.keys(group)), { timeout: 60_000 }).toContain(RUN_REPORT_NAME);
  const entries = Object.values(await listed()).flatMap((group) => Object.entries(group));
  const run = (await (await page.request.get(`/test/runs/${runAllId}`, { headers: auth })).json()) as RunDetailResponse;
  expect(run.tests).toHaveLength(DEMO_TESTS);
  expect(entries.map(([name]) => name)).toEqual(expect.arrayContaining([RUN_REPORT_NAME, ...run.tests.map((t) => t.testName)]));
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

test('the portal then shows the four insight cards', async ({ demoPage: page }) => {
  await page.goto(paths.insights);
  for (const title of ['Load Insights', 'Zap Insights', 'Frontend Test Insights', 'Security Test Insights']) {
    await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
  }
});

test('History lists the Run All and a single test run after it with how they started and their totals; the later run compares itself with the one before and opens its reports', async ({
  demoPage: page,
  demoSession,
}) => {
  // The single test may wait in the queue behind another spec's run of the demo.
  test.setTimeout(RUN_ALL_BUDGET_MS);
  const auth = authOf(demoSession.accessToken);
  const alerts = collectAlerts(page);

  await page.goto(paths.tests);
  // By its whole name: "Marketing pages on every engine" is another test.
  const row = page.getByRole('listitem').filter({ has: page.getByText(SINGLE_TEST, { exact: true }) });
  await row.getByRole('button', { name: 'Run Test' }).click();
  await expect.poll(() => alerts).toHaveLength(1);
  const single = new RegExp(`^Test ${SINGLE_TEST} queued \\(run (\\S+)\\)$`).exec(alerts[0]!)?.[1];
  expect(single, alerts[0]).toBeTruthy();
  await expect
    // Bounded by the test's timeout: the queue ahead of it is other specs'.
    .poll(() => statusOf(page, demoSession.accessToken, single!), { timeout: 0, intervals: [2000] })
    .toMatch(/^(passed|failed|error)$/);

  await page.goto(paths.history);
  await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible();
  // Filtered by the test both runs included: the other specs' runs of the demo (a page holds 20) cannot push either off.
  await page.getByLabel('Test', { exact: true }).selectOption(SINGLE_TEST);
  await expect(page).toHaveURL(/test=Marketing/);
  const rowOf = (runId: string) => page.getByRole('row').filter({ has: page.locator(`a[href="${historyRunPath(runId)}"]`) });
  for (const [runId, scope] of [
    [runAllId, `All tests (${DEMO_TESTS})`],
    [single!, SINGLE_TEST],
  ] as const) {
    await expect(rowOf(runId)).toContainText('Portal');
    await expect(rowOf(runId)).toContainText(scope);
    // "45 of 49 passed", or "45 passed, 4 skipped" when some were skipped (run-totals.ts).
    await expect(rowOf(runId)).toContainText(/\d+ (of \d+ )?passed/);
    await expect(rowOf(runId)).toContainText(/Passed|Failed|Could not run/);
  }
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await shots(page, 'history-after-run-all');

  await page.goto(historyRunPath(single!));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Run of');
  const changes = page.getByRole('region', { name: 'What changed since the previous run' });
  await expect(changes).toContainText('Compared with the run of');
  // The run before: the Run All, or a run of the same test another spec of this demo account started in between.
  const detail = (await (await page.request.get(`/test/history/${single}`, { headers: auth })).json()) as {
    comparison: { previousRunId: string | null };
  };
  const previous = detail.comparison.previousRunId;
  expect(previous).toBeTruthy();
  expect(previous).not.toBe(single);
  const runs = (await (await page.request.get('/test/history?pageSize=100', { headers: auth })).json()) as { runs: { runId: string }[] };
  const order = runs.runs.map((r) => r.runId);
  // Newest first: the previous run lies between the single run and the Run All, the Run All included.
  expect(order.indexOf(previous!)).toBeGreaterThan(order.indexOf(single!));
  expect(order.indexOf(previous!)).toBeLessThanOrEqual(order.indexOf(runAllId));
  await expect(changes.getByRole('link')).toHaveAttribute('href', historyRunPath(previous!));
  await expect(page.getByRole('heading', { name: 'Tests', level: 2 })).toBeVisible();
  await expect(page.getByRole('heading', { name: SINGLE_TEST, level: 3, exact: true })).toBeVisible();

  // This run's own HTML report of its test, in a tab of its own.
  const [report] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: `Open the HTML report of ${SINGLE_TEST}`, exact: true }).click(),
  ]);
  await expect(report).toHaveURL(new RegExp(`/test/history/${single}/tests/[\\w-]+/report/html/view\\?token=`));
  await expect(report.getByRole('heading', { level: 1 })).toContainText(SINGLE_TEST);

  // The Run All's report of the whole run, in a tab of its own: every test of the run in it.
  await expect
    .poll(async () => ((await (await page.request.get(`/test/history/${runAllId}`, { headers: auth })).json()) as { runReportFormats: string[] }).runReportFormats, { timeout: 30_000 })
    .toContain('html');
  await page.goto(historyRunPath(runAllId));
  const [runReport] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open the run report' }).click()]);
  await expect(runReport).toHaveURL(new RegExp(`/test/history/${runAllId}/report/html/view\\?token=`));
  await expect(runReport.getByText(SINGLE_TEST).first()).toBeVisible();
});
