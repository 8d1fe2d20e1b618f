import { paths } from '@fullstop/contracts';
import { createClient, importSuite } from '../../support/operator.ts';
import { collectAlerts, expect, loginThroughApi, test } from '../../support/portal.ts';

/** One quick API test against this very server, so a run finishes in seconds and leaves real reports. */
const SUITE = {
  version: 1,
  name: 'Portal e2e',
  groups: [
    {
      name: 'API',
      tests: [
        {
          name: 'Health check',
          kind: 'api',
          options: { requests: [{ name: 'healthz answers ok', path: '/healthz', expect: { status: 200 } }] },
        },
      ],
    },
  ],
};

test.describe('tests and reports', () => {
  test('empty states: no tests, no reports, no insights', async ({ clientPage: page }) => {
    await page.goto(paths.tests);
    await expect(page.getByText('No tests available.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Run All Tests' })).toHaveCount(0);
    await page.goto(paths.reports);
    await expect(page.getByText('No reports available.')).toBeVisible();
    await page.goto(paths.insights);
    await expect(page.getByText('No insights available.')).toBeVisible();
  });

  test('runs a test from the portal, shows its live result, and opens its report in a new tab', async ({ demoPage: page }) => {
    // Other specs share the demo account: its run may wait in the queue behind their Run All.
    test.setTimeout(180_000);
    // Only the demo client may test a private address (this server on 127.0.0.1); its "Health check" is quick.
    const alerts = collectAlerts(page);

    await page.goto(paths.tests);
    const group = page.getByRole('button', { name: /^API/ });
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('button', { name: 'Run All Tests' })).toBeVisible();
    const row = page.getByRole('listitem').filter({ hasText: 'Health check' });
    await row.getByRole('button', { name: 'Run Test' }).click();
    await expect.poll(() => alerts).toHaveLength(1);
    expect(alerts[0]).toMatch(/^Test Health check queued \(run \S+\)$/);
    await expect(row.getByTestId('live-status')).toHaveText(/Passed: \d+ passed, 0 failed, 0 skipped/, { timeout: 150_000 });

    // Groups fold.
    await group.click();
    await expect(row).toBeHidden();

    await page.goto(paths.reports);
    const report = page.getByRole('listitem').filter({ hasText: 'Health check' });
    await expect(report).toContainText(/Last Updated: \d{2}\/\d{2}\/\d{4}/);
    const json = report.getByRole('button', { name: /JSON/ });
    await expect(json).toHaveText('JSON');
    const opened = page.waitForEvent('popup');
    await json.click();
    const tab = await opened;
    // From the server, sandboxed (a blob: URL would share the portal's origin), pretty-printed.
    await expect.poll(() => tab.url()).toMatch(/\/report\/view\/Health%20check\/json\?token=/);
    await expect(tab.locator('body')).toContainText('"testName": "Health check"');
  });

  test('a failed run shows the spec’s error text with the server’s answer', async ({ page, request, baseURL }) => {
    const client = await createClient(request, { label: 'runerr', website: baseURL! });
    await importSuite(request, client.clientId, SUITE);
    await loginThroughApi(page, client);
    const alerts = collectAlerts(page);
    await page.route('**/test/run/all', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Queue is paused"}' }));
    await page.goto(paths.tests);
    const runAll = page.getByRole('button', { name: 'Run All Tests' });
    await expect(runAll).toBeEnabled();
    const sent = page.waitForRequest('**/test/run/all');
    await runAll.click();
    await sent;
    await expect.poll(() => alerts, { timeout: 15_000 }).toEqual(['Error running all tests: Queue is paused']);
  });
});
