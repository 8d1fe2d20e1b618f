import { paths } from '@fullstop/contracts';
import { expect, loginThroughApi, test } from '../../support/portal.ts';

test.describe('an ended session', () => {
  test('lands on /login saying so, and logging in returns to the page the user was on', async ({ page, client }) => {
    await loginThroughApi(page, client);
    await page.goto(paths.reports);
    await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
    // The session ends on the server's side: neither token works any more.
    await page.evaluate(() => {
      localStorage.setItem('accessToken', 'not-a-token');
      localStorage.setItem('refreshToken', 'revoked-refresh-token');
    });
    await page.goto(paths.tests);
    await expect(page).toHaveURL(/\/login\?session=ended&next=%2Fdashboard%2Ftests$/);
    await expect(page.getByRole('status').filter({ hasText: 'Your session has ended. Please log in again.' })).toBeVisible();
    await expect(page).toHaveTitle('User Login · Fullstop QA');

    await page.getByLabel('Email').fill(client.email);
    await page.getByLabel('Password').fill(client.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('dialog')).toContainText('Login successful!');
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page).toHaveURL(/\/dashboard\/tests$/);
    await expect(page.getByRole('heading', { name: 'Tests', level: 1 })).toBeVisible();
  });

  test('a page opened without a session comes back after the login; an outside next is ignored', async ({ page, client }) => {
    await page.goto(paths.setup);
    await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%2Fsetup$/);
    await expect(page.getByText('Your session has ended.')).toHaveCount(0);
    await page.getByLabel('Email').fill(client.email);
    await page.getByLabel('Password').fill(client.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page).toHaveURL(/\/dashboard\/setup$/);

    // Signed in, /login follows a portal next, and never an outside one.
    await page.goto(`${paths.login}?next=${encodeURIComponent('/dashboard/requests')}`);
    await expect(page).toHaveURL(/\/dashboard\/requests$/);
    await page.goto(`${paths.login}?next=${encodeURIComponent('https://example.com/dashboard')}`);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto(`${paths.login}?next=${encodeURIComponent('//example.com/dashboard')}`);
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
