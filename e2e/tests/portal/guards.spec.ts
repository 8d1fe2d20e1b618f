import { paths } from '@fullstop/contracts';
import { expect, loginThroughApi, test } from '../../support/portal.ts';

test.describe('route guards', () => {
  test('a visitor who is not logged in never sees /dashboard/*', async ({ page }) => {
    for (const path of [paths.dashboard, paths.insights, paths.setup, paths.tests, paths.reports, paths.requests, '/dashboard/anything/else']) {
      await page.goto(path);
      // Issue 8: /login keeps the page asked for, to return to it after logging in.
      const next = path === paths.dashboard ? '' : `?next=${encodeURIComponent(path)}`;
      await expect(page).toHaveURL(new RegExp(`/login${next.replace(/[?]/g, '\\?')}$`));
      await expect(page.getByRole('heading', { name: 'User Login' })).toBeVisible();
    }
  });

  test('a logged-in client never sees /login, and the dashboard greets them by name', async ({ page, client }) => {
    await loginThroughApi(page, client);
    await page.goto(paths.login);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`Welcome to your Dashboard, ${client.username}`)).toBeVisible();
    await expect(page.getByRole('img', { name: 'Fullstop QA' }).first()).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    for (const item of ['Insights', 'Setup', 'Tests', 'Reports', 'Requests']) {
      await expect(menu.getByRole('link', { name: item })).toBeVisible();
    }
    await expect(menu.getByRole('button', { name: 'Logout' })).toBeVisible();
  });

  test('marketing pages never download portal code', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto(paths.home);
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((u) => /portal|login|dashboard|insights|recharts/i.test(u))).toEqual([]);
  });
});
