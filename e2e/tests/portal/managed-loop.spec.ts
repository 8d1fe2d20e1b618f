import { apiPaths, paths } from '@fullstop/contracts';
import { createClient, importSuite, operatorToken } from '../../support/operator.ts';
import { expect, loginThroughApi, operatorPage, test } from '../../support/portal.ts';
import { shots } from '../../support/screenshots.ts';

/** One quick API test against a site that does not exist: it fails at once, and fails again on every retest. */
const SUITE = {
  version: 1,
  name: 'Managed loop e2e',
  groups: [{ name: 'Frontend', tests: [{ name: 'Checkout page', kind: 'api', retries: 0, options: { requests: [{ name: 'checkout', path: '/checkout' }] } }] }],
};

test.describe('the managed loop', () => {
  test('an operator turns a failed test into a bug; the client marks it fixed, asks for the free retest and sees it reopened', async ({
    browser,
    baseURL,
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    const client = await createClient(request, { label: 'loop', website: 'https://site.invalid' });
    await importSuite(request, client.clientId, SUITE);
    const run = await request.get(`${apiPaths.runAllTests}?wait=true&timeout=60`, { headers: { 'x-api-key': client.apiKey } });
    expect(run.status(), await run.text()).toBe(200);

    // The operator lands on the console, finds the failure in the runs feed and makes a bug of it.
    const ops = await operatorPage(browser, baseURL!, 'ops', 'E2E Operator');
    await expect(ops.page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
    await ops.page.goto(`${paths.opsRuns}?clientId=${client.clientId}`);
    await ops.page.getByRole('link', { name: /Create bug/ }).first().click();
    await expect(ops.page.getByLabel('Title')).toHaveValue('Checkout page fails');
    await shots(ops.page, 'ops-bug-new');
    await ops.page.getByRole('button', { name: 'Publish to the client' }).click();
    await expect(ops.page).toHaveURL(/\/ops\/bugs\/[\w-]+$/);
    await expect(ops.page.getByRole('heading', { level: 1 })).toContainText('BUG-1 · Checkout page fails');

    // A client never opens the console.
    await loginThroughApi(page, client);
    await page.goto(paths.opsClients);
    await expect(page).toHaveURL(/\/dashboard$/);

    // The client sees the bug on the dashboard and the Bugs page, marks it fixed and asks for the free retest.
    await expect(page.getByRole('region', { name: 'Open bugs' })).toContainText('1');
    await page.goto(paths.bugs);
    await page.getByRole('link', { name: /Checkout page fails/ }).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('BUG-1 · Checkout page fails');
    await page.getByRole('button', { name: 'Mark fixed' }).click();
    await expect(page.getByRole('button', { name: 'Request retest' })).toBeVisible();
    await page.getByRole('button', { name: 'Request retest' }).click();

    // The retest re-runs the linked test; the site still fails, so the bug comes back reopened.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByText('Reopened', { exact: true }).first().isVisible();
        },
        { timeout: 120_000, intervals: [3000] },
      )
      .toBe(true);
    await shots(page, 'client-bug-reopened');

    // The operator's audit log holds the console's reads of this client.
    const audit = await ops.page.request.get(`/operator/audit?clientId=${client.clientId}&type=ops.access`, {
      headers: { authorization: `Bearer ${operatorToken()}` },
    });
    expect(audit.status()).toBe(200);
    expect(((await audit.json()) as { total: number }).total).toBeGreaterThan(0);
    await ops.context.close();
  });

  test('the console’s System page shows the server process running and where artifacts go', async ({ browser, baseURL }) => {
    const ops = await operatorPage(browser, baseURL!, 'ops', 'E2E Operator');
    await ops.page.getByRole('link', { name: 'System' }).click();
    await expect(ops.page.getByRole('heading', { name: 'System', level: 1 })).toBeVisible();
    const table = ops.page.getByRole('table', { name: 'Server processes, running ones first' });
    await expect(table.getByRole('row').filter({ hasText: 'API' }).first()).toContainText('Running');
    await expect(ops.page.getByText('Data directory')).toBeVisible();
    await shots(ops.page, 'ops-system');
    await ops.context.close();
  });
});
