import { apiPaths, opsClientPath, paths, type ManualSettings, type RunDetailResponse } from '@fullstop/contracts';
import { createClient, importSuite, operatorToken } from '../../support/operator.ts';
import { expect, loginThroughApi, operatorPage, test } from '../../support/portal.ts';
import { shots } from '../../support/screenshots.ts';

const CASE = 'Checkout with a coupon';

/** One manual case of five steps, on an iPhone (issue 41). */
const SUITE = {
  version: 1,
  name: 'Manual work e2e',
  groups: [
    {
      name: 'Shop',
      tests: [
        {
          name: CASE,
          kind: 'manual',
          description: 'A coupon lowers the total.',
          options: {
            goal: 'A valid coupon lowers the basket total before payment.',
            preconditions: ['A signed-in customer with an empty basket'],
            testData: { coupon: 'SAVE10' },
            steps: [
              { action: 'Add the trail tent to the basket.', expected: 'The basket shows one item.' },
              { action: 'Open the basket.', expected: 'The total is 249.00 €.' },
              { action: 'Apply the coupon SAVE10.', expected: 'The total drops to 224.10 €.' },
              { action: 'Tab from the coupon field to Pay now.', expected: 'Focus stays visible.', wcag: ['2.4.7'] },
              { action: 'Press Pay now.', expected: 'The payment page shows the reduced total.' },
            ],
            platforms: { device: 'iPhone 15', browser: 'Safari', os: 'iOS 18' },
            estimateMinutes: 20,
          },
        },
      ],
    },
  ],
};

/** A small PNG: the step's screenshot. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwAFgwJ/lOaO8QAAAABJRU5ErkJggg==', 'base64');

test.describe('the console’s Manual work (issue 41)', () => {
  test('an operator claims a client’s manual case, walks it at 375 px with a failed step and a screenshot, and submits it', async ({ browser, baseURL, request, page }) => {
    // A real run, an operator signing in, and the screenshots when PORTAL_SCREENSHOTS asks for them.
    test.setTimeout(120_000);
    const client = await createClient(request, { label: 'manual' });
    await importSuite(request, client.clientId, SUITE);
    const queued = await request.get(apiPaths.runAllTests, { headers: { 'x-api-key': client.apiKey } });
    expect(queued.status(), await queued.text()).toBe(200);
    const { runId } = (await queued.json()) as { runId: string };
    const runDetail = async () =>
      (await (await request.get(`/test/runs/${runId}`, { headers: { 'x-api-key': client.apiKey } })).json()) as RunDetailResponse;
    await expect.poll(async () => (await runDetail()).manual?.count ?? 0).toBe(1);

    // The client reads that it waits for a tester, and until when.
    await loginThroughApi(page, client);
    await page.goto(paths.dashboard);
    await expect(page.getByRole('region', { name: 'Last run' }).getByRole('status')).toHaveText(/^1 manual case waiting for a tester, due by \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}\.$/);
    await shots(page, 'portal-manual-waiting');
    await page.goto(paths.tests);
    await expect(page.getByRole('status').filter({ hasText: 'manual case waiting for a tester' })).toBeVisible();
    await shots(page, 'portal-tests-manual-waiting');

    const ops = await operatorPage(browser, baseURL!, 'manual-ops', 'E2E Manual Tester');
    await ops.page.goto(paths.opsManual);
    await expect(ops.page.getByRole('heading', { name: 'Manual work', level: 1 })).toBeVisible();
    const row = ops.page.locator('tr').filter({ has: ops.page.locator(`a[href="${opsClientPath(client.clientId)}"]`) });
    await expect(row).toContainText(CASE);
    await expect(row).toContainText('iPhone 15 · Safari · iOS 18');
    await expect(row).toContainText('20 min');
    await expect(row).toContainText('5 steps');
    await shots(ops.page, 'ops-manual-queue');

    await ops.page.setViewportSize({ width: 375, height: 812 });
    await row.getByRole('button', { name: `Claim ${CASE}` }).click();
    await expect(ops.page).toHaveURL(/\/ops\/manual\/[^/]+$/);
    await expect(ops.page.getByRole('heading', { name: CASE, level: 1 })).toBeVisible();
    await expect(ops.page.getByText('Claimed by you')).toBeVisible();

    for (const n of [1, 2]) {
      const step = ops.page.getByRole('listitem', { name: new RegExp(`^Step ${n}`) });
      await step.getByRole('button', { name: 'Pass' }).click();
      await expect(step.getByRole('status').first()).toHaveText('Saved');
    }
    const third = ops.page.getByRole('listitem', { name: /^Step 3/ });
    await third.getByRole('button', { name: 'Fail' }).click();
    await expect(third.getByRole('button', { name: 'Fail' })).toHaveAttribute('aria-pressed', 'true');
    await third.getByLabel('Note on step 3').fill('The total stays at 249.00 €.');
    await third.getByLabel('Note on step 3').blur();
    await expect(third.getByText('Saved', { exact: true })).toBeVisible();
    await third.getByLabel('Add screenshots or a screen recording').setInputFiles({ name: 'coupon.png', mimeType: 'image/png', buffer: PNG });
    await expect(third.getByRole('img', { name: 'coupon.png' })).toBeVisible();
    await expect(ops.page.getByRole('listitem', { name: /^Step 4/ })).toContainText('Not reached');
    await expect(ops.page.getByRole('listitem', { name: /^Step 5/ })).toContainText('Not reached');
    await expect(ops.page.getByLabel('Device')).toHaveValue('iPhone 15');
    await shots(ops.page, 'ops-manual-case');

    await ops.page.getByRole('button', { name: 'Submit' }).click();
    const confirm = ops.page.getByRole('alertdialog', { name: 'Submit this case?' });
    await expect(confirm).toContainText('It will count as failed');
    await confirm.getByRole('button', { name: 'Submit' }).click();
    await expect(ops.page).toHaveURL(/\/ops\/manual$/);
    await expect(ops.page.getByRole('status').filter({ hasText: 'Submitted' })).toBeVisible();
    await expect(row).toHaveCount(0);

    // The verdict is the test's result in the client's run.
    await expect.poll(async () => (await runDetail()).tests[0]?.status).toBe('failed');
    expect((await runDetail()).manual ?? null).toBeNull();
    await ops.context.close();
  });

  test('a client reads a manual case’s goal and numbered steps on the Tests page', async ({ request, page }) => {
    test.setTimeout(60_000);
    const client = await createClient(request, { label: 'manual-steps' });
    await importSuite(request, client.clientId, SUITE);
    await loginThroughApi(page, client);
    await page.goto(paths.tests);
    const row = page.getByRole('listitem').filter({ hasText: CASE });
    await expect(row.getByText('Manual', { exact: true })).toBeVisible();
    const toggle = row.getByRole('button', { name: `Steps of ${CASE} (5)` });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(row.getByText('A valid coupon lowers the basket total before payment.')).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(row.getByText('A valid coupon lowers the basket total before payment.')).toBeVisible();
    await expect(row.getByText('A signed-in customer with an empty basket')).toBeVisible();
    const steps = row.getByRole('list').last().getByRole('listitem');
    await expect(steps).toHaveCount(5);
    await expect(steps.first()).toHaveText(/^Add the trail tent to the basket\. →.*The basket shows one item\.$/);
    await expect(steps.nth(3)).toContainText('WCAG 2.4.7');
    await expect(row).toContainText('Run by a tester on: iPhone 15 · Safari · iOS 18 · about 20 min');
    await shots(page, 'tests-page');

    // Without the manual cases the page still lists and runs the test, with nothing extra.
    await page.route('**/test/manual-cases', (route) => route.fulfill({ status: 500, json: { message: 'down' } }));
    await page.reload();
    await expect(row.getByRole('button', { name: 'Run Test' })).toBeVisible();
    await expect(row.getByText('Manual', { exact: true })).toHaveCount(0);
    await expect(row.getByRole('button', { name: /^Steps/ })).toHaveCount(0);
  });

  test('an operator sets when a client’s manual cases are due', async ({ browser, baseURL, request }) => {
    test.setTimeout(60_000);
    const client = await createClient(request, { label: 'manual-settings' });
    const ops = await operatorPage(browser, baseURL!, 'manual-settings-ops', 'E2E Manual Settings');
    await ops.page.goto(opsClientPath(client.clientId));
    const card = ops.page.getByRole('region', { name: 'Manual testing' });
    const hours = card.getByRole('textbox', { name: 'Manual cases are due hours after a run' });
    await expect(hours).toHaveValue('48');
    await hours.fill('24');
    await card.getByRole('checkbox', { name: 'Counting working days only (Monday to Friday, UTC)' }).uncheck();
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByRole('status')).toHaveText('Saved. Manual cases are due 24 hours after a run.');
    const stored = await request.get(`/operator/clients/${client.clientId}/manual-settings`, { headers: { authorization: `Bearer ${operatorToken()}` } });
    expect((await stored.json()) as ManualSettings).toEqual({ dueHours: 24, workingDaysOnly: false });
    await card.scrollIntoViewIfNeeded();
    await shots(ops.page, 'ops-client-manual-settings');
    await ops.context.close();
  });
});
