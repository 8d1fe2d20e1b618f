import { paths } from '@fullstop/contracts';
import { collectAlerts, expect, test } from '../../support/portal.ts';
import { shots } from '../../support/screenshots.ts';

/** The demo's whole suite runs against this server; on 2 shared cores it takes well under this. */
const RUN_ALL_BUDGET_MS = 240_000;
const DEMO_TESTS = 9;

test.describe.configure({ mode: 'serial' });

test('Run All Tests waits while its run goes, counting "n of m", then every test shows its last result and report', async ({ demoPage: page }) => {
  test.setTimeout(RUN_ALL_BUDGET_MS + 120_000);
  const alerts = collectAlerts(page);
  await page.goto(paths.tests);
  const runAll = page.getByRole('button', { name: 'Run All Tests' });
  // Another run of all of the demo (another spec) keeps the button busy until it ends.
  await expect(runAll).toBeEnabled({ timeout: RUN_ALL_BUDGET_MS });
  await runAll.click();
  await expect.poll(() => alerts).toHaveLength(1);
  expect(alerts[0]).toMatch(new RegExp(`^All tests queued: ${DEMO_TESTS} tests \\(run \\S+\\)$`));

  const progress = page.getByTestId('run-all-progress');
  await expect(progress).toHaveText(new RegExp(`^Running \\d of ${DEMO_TESTS}…$`));
  await expect(runAll).toBeDisabled();
  await shots(page, 'tests-running');

  // The count goes up as tests end, and the button comes back when the last one did.
  await expect(progress).toHaveText(new RegExp(`^Running [1-${DEMO_TESTS - 1}] of ${DEMO_TESTS}…$`), { timeout: RUN_ALL_BUDGET_MS });
  await expect(runAll).toBeEnabled({ timeout: RUN_ALL_BUDGET_MS });
  await expect(progress).toHaveCount(0);
  expect(alerts).toHaveLength(1);

  // Each test: its status in words and its last result (when, how long) with its report. (Another spec may run
  // the demo's tests again meanwhile, so the status word may already be a newer run's.)
  const rows = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Run Test' }) });
  await expect(rows).toHaveCount(DEMO_TESTS);
  for (const row of await rows.all()) {
    await expect(row.getByTestId('live-status')).toHaveText(/^(Passed|Failed|Could not run|Queued|Running)\b/);
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
