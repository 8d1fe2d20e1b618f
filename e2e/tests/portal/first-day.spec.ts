import { paths } from '@fullstop/contracts';
import { collectPageProblems } from '../../support/page-problems.ts';
import { expect, operatorPage, test } from '../../support/portal.ts';

/** Issue 39: a new client's first day has a path, and the console sees who waits for a suite. */
test.describe('a new client’s first day', () => {
  test('the dashboard and Tests say the suite is being prepared, when the first report is due, and where to ask', async ({ clientPage: page }) => {
    const problems = collectPageProblems(page);
    const requests404: string[] = [];
    page.on('response', (res) => void (res.status() === 404 && requests404.push(res.url())));
    await page.goto(paths.dashboard);
    const card = page.getByTestId('first-day');
    await expect(card.getByRole('heading', { name: 'Your test suite is being prepared' })).toBeVisible();
    await expect(card).toContainText('Your first report is due by');
    await expect(card).toContainText('we start within 48 hours of your sign-up');
    await expect(page.getByText('No runs yet.')).toHaveCount(0);

    await page.goto(paths.tests);
    await expect(page.getByText('No tests available.', { exact: true })).toBeVisible();
    await expect(page.getByTestId('first-day')).toBeVisible();

    await page.goto(paths.reports);
    await expect(page.getByText('No reports available.', { exact: true })).toBeVisible();

    await page.goto(paths.tests);
    await page.getByRole('link', { name: 'Ask your QA team' }).click();
    await expect(page).toHaveURL(/\/dashboard\/requests\?kind=question$/);
    await expect(page.getByLabel('Type')).toHaveValue('question');
    // No 404 on the way: before a first suite the Reports page does not ask for reports (the spec answers 404 for none).
    expect(requests404).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('the console lists the client without a current suite, with the time since signing', async ({ browser, baseURL, client }) => {
    const { page, context } = await operatorPage(browser, baseURL!, 'first-day');
    const waiting = page.getByRole('region', { name: /Without a current suite/ });
    const row = waiting.getByRole('listitem').filter({ has: page.locator(`a[href="/ops/clients/${client.clientId}"]`) });
    await expect(row).toContainText(/signed .* ago; first report due in 4\d h/);
    await context.close();
  });
});
