import { paths, type RunResultResponse } from '@fullstop/contracts';
import { createClient, importSuite } from '../../support/operator.ts';
import { expect, loginThroughApi, test } from '../../support/portal.ts';
import { shots } from '../../support/screenshots.ts';
import { SAMPLE_INSIGHTS } from '../../support/sample-insights.ts';

const RUN_BUDGET_MS = 240_000;

/** Two API checks against an address no client but the demo may test: the run ends at once, and neither test can run. */
const UNREACHABLE_SUITE = {
  version: 1,
  name: 'Home e2e',
  groups: [
    {
      name: 'API',
      tests: ['Health check', 'Status page'].map((name) => ({
        name,
        kind: 'api',
        retries: 0,
        options: { requests: [{ name: 'answers', path: '/healthz', expect: { status: 200 } }] },
      })),
    },
  ],
};

test.describe('dashboard home', () => {
  test('a client that never ran is told where to start', async ({ clientPage: page, client, request }) => {
    // With a suite: without one, the first-day card says it is being prepared (first-day.spec.ts).
    await importSuite(request, client.clientId, UNREACHABLE_SUITE);
    await page.goto(paths.dashboard);
    await expect(page.getByText(/^Welcome to your Dashboard, /)).toBeVisible();
    await expect(page.getByText('No runs yet. Run your tests from the Tests page.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Last run' })).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Quick links' }).getByRole('link', { name: 'Insights' })).toBeVisible();
    await shots(page, 'home-never-ran');
    await page.getByRole('link', { name: 'Tests page' }).click();
    await expect(page).toHaveURL(/\/dashboard\/tests$/);
  });

  test('after a run shows its verdict in words, its totals, the failing tests and the alerts by risk', async ({ page, request, baseURL }) => {
    // The run takes its turn on the shared queue: other specs' runs (the demo's whole suite) may hold every worker.
    test.setTimeout(RUN_BUDGET_MS + 30_000);
    const client = await createClient(request, { label: 'home', website: baseURL! });
    await importSuite(request, client.clientId, UNREACHABLE_SUITE);
    const res = await request.get(`/test/run/all?wait=true&timeout=${RUN_BUDGET_MS / 1000}`, {
      headers: { 'x-api-key': client.apiKey },
      timeout: RUN_BUDGET_MS,
    });
    expect(res.status()).toBe(200);
    const run = (await res.json()) as RunResultResponse;
    expect(run.tests.map((t) => t.status)).toEqual(['error', 'error']);

    await loginThroughApi(page, client);
    await page.route('**/insight/fetch/all', (route) => route.fulfill({ json: SAMPLE_INSIGHTS }));
    await page.goto(paths.dashboard);
    const lastRun = page.getByRole('region', { name: 'Last run' });
    await expect(lastRun).toContainText('Could not run');
    await expect(lastRun).toContainText('0 of 2 passed');
    await expect(lastRun).toContainText(/All tests · finished \S/);
    await expect(lastRun.getByRole('link', { name: 'View run details' })).toHaveAttribute('href', `/dashboard/history/${run.runId}`);

    const failing = page.getByRole('region', { name: /Failing tests/ });
    for (const name of ['Health check', 'Status page']) {
      const row = failing.getByRole('listitem').filter({ hasText: name });
      await expect(row).toContainText('API · failing as of');
      await expect(row).toContainText('Could not run');
    }

    const alerts = page.getByRole('region', { name: 'Alerts by risk' });
    for (const [risk, count] of [['High', 1], ['Medium', 3], ['Low', 6], ['Informational', 9]] as const) {
      await expect(alerts.getByRole('listitem').filter({ hasText: risk })).toHaveText(`${count}${risk}`);
    }
    await shots(page, 'home-could-not-run');

    // A scan without alerts says so, rather than showing four zeros.
    await page.route('**/insight/fetch/all', (route) => route.fulfill({ json: { zap: { High: 0, Medium: 0, Low: 0, Informational: 0, 'False Positives': 4 } } }));
    await page.reload();
    await expect(alerts).toContainText('No alerts found');
    await expect(alerts.getByRole('listitem')).toHaveCount(0);
  });
});
