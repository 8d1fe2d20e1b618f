import { historyRunPath, paths } from '@fullstop/contracts';
import { collectAlerts, expect, test } from '../../support/portal.ts';

/**
 * The whole demo suite runs against this server, twice; on 2 cores it queues behind the other worker's specs, which
 * run the same demo client's tests (one browser test at a time), so a run can wait minutes before it starts. This
 * test is about History, not the runs' speed: each run is waited for within the test's own time, with no budget of
 * its own (2 minutes each alone, 5.5 beside the other specs on a busy machine).
 */
const RUN_ALL_BUDGET_MS = 360_000;

test.describe.configure({ mode: 'serial' });

test('History lists two runs of "Run All Tests" with how they started and their totals; a run compares itself with the one before and opens its report', async ({
  demoPage: page,
  demoSession,
}) => {
  test.setTimeout(2 * RUN_ALL_BUDGET_MS + 90_000);
  const auth = { authorization: `Bearer ${demoSession.accessToken}` };
  const alerts = collectAlerts(page);

  /** Clicks the Tests page's Run All Tests, as a person does, and waits for that run to end. */
  const runAll = async (): Promise<string> => {
    const before = alerts.length;
    await page.goto(paths.tests);
    await page.getByRole('button', { name: 'Run All Tests' }).click();
    await expect.poll(() => alerts.length).toBeGreaterThan(before);
    const runId = /\(run ([\w-]+)\)/.exec(alerts.at(-1)!)?.[1];
    expect(runId, alerts.at(-1)).toBeTruthy();
    await expect
      .poll(async () => (await (await page.request.get(`/test/runs/${runId}`, { headers: auth })).json()).status as string, {
        // Bounded by the test's timeout, not a run's budget: a run that queued the longest leaves the other less.
        timeout: 0,
        intervals: [2000],
      })
      .toMatch(/^(passed|failed|error)$/);
    return runId!;
  };
  const first = await runAll();
  const second = await runAll();

  await page.goto(paths.history);
  await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible();
  for (const runId of [first, second]) {
    const row = page.getByRole('row').filter({ has: page.locator(`a[href="${historyRunPath(runId)}"]`) });
    await expect(row).toContainText('Portal');
    await expect(row).toContainText('All tests (9)');
    // "45 of 49 passed", or "45 passed, 4 skipped" when some were skipped (run-totals.ts).
    await expect(row).toContainText(/\d+ (of \d+ )?passed/);
    await expect(row).toContainText(/Passed|Failed|Could not run/);
  }
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();

  // Filtered by a test the runs included, both are still there; by a verdict neither has, they are not.
  await page.getByLabel('Test', { exact: true }).selectOption('Marketing pages');
  await expect(page).toHaveURL(/test=Marketing/);
  await expect(page.locator(`a[href="${historyRunPath(second)}"]`)).toBeVisible();
  await expect(page.locator(`a[href="${historyRunPath(first)}"]`)).toBeVisible();

  // Run all writes its run report just after the run ends: the detail offers it once it is there.
  await expect
    .poll(async () => ((await (await page.request.get(`/test/history/${second}`, { headers: auth })).json()) as { runReportFormats: string[] }).runReportFormats, { timeout: 30_000 })
    .toContain('html');
  await page.goto(historyRunPath(second));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Run of');
  const changes = page.getByRole('region', { name: 'What changed since the previous run' });
  await expect(changes).toContainText('Compared with the run of');
  // The run before: ours, or one another spec of this demo account started in between (workers share it).
  const detail = (await (await page.request.get(`/test/history/${second}`, { headers: auth })).json()) as {
    comparison: { previousRunId: string | null };
  };
  const previous = detail.comparison.previousRunId;
  expect(previous).toBeTruthy();
  expect(previous).not.toBe(second);
  const runs = (await (await page.request.get('/test/history?pageSize=100', { headers: auth })).json()) as { runs: { runId: string }[] };
  const order = runs.runs.map((r) => r.runId);
  // Newest first: the previous run lies between the second run and the first, the first included.
  expect(order.indexOf(previous!)).toBeGreaterThan(order.indexOf(second));
  expect(order.indexOf(previous!)).toBeLessThanOrEqual(order.indexOf(first));
  await expect(changes.getByRole('link')).toHaveAttribute('href', historyRunPath(previous!));
  await expect(page.getByRole('heading', { name: 'Tests', level: 2 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Marketing pages', level: 3, exact: true })).toBeVisible();

  // This run's own HTML report of a test, in a tab of its own.
  const [report] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Open the HTML report of Marketing pages', exact: true }).click(),
  ]);
  await expect(report).toHaveURL(new RegExp(`/test/history/${second}/tests/[\\w-]+/report/html/view\\?token=`));
  await expect(report.getByRole('heading', { level: 1 })).toContainText('Marketing pages');

  // The report of the whole run (Run all writes one), in a tab of its own: every test of the run in it.
  const [runReport] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open the run report' }).click()]);
  await expect(runReport).toHaveURL(new RegExp(`/test/history/${second}/report/html/view\\?token=`));
  await expect(runReport.getByText('Marketing pages').first()).toBeVisible();
});
