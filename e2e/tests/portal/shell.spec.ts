import { paths } from '@fullstop/contracts';
import { expect, test } from '../../support/portal.ts';

const TITLES: [string, string][] = [
  [paths.dashboard, 'Dashboard · Fullstop QA'],
  [paths.insights, 'Insights · Fullstop QA'],
  [paths.setup, 'Setup · Fullstop QA'],
  [paths.tests, 'Tests · Fullstop QA'],
  [paths.reports, 'Reports · Fullstop QA'],
  [paths.requests, 'Requests · Fullstop QA'],
  [paths.history, 'History · Fullstop QA'],
];

test.describe('the dashboard shell', () => {
  test('is an app of its own: one logo, the user, one Logout, no marketing header or footer, a title per page', async ({ clientPage: page, client }) => {
    await page.goto(paths.dashboard);
    await expect(page.getByText(`Welcome to your Dashboard, ${client.username}`)).toBeVisible();
    await expect(page.getByRole('img', { name: 'Fullstop QA' })).toHaveCount(1);
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Pricing' })).toHaveCount(0);
    const header = page.getByRole('banner');
    await expect(header).toContainText(client.username);
    // One Logout, at the end of the side menu (the spec's place), on phones and wide screens alike.
    await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(1);
    await expect(header.getByRole('button', { name: 'Logout' })).toHaveCount(0);

    // The spec's entries in its order, then ours (History, Bugs, Team), then Logout.
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    await expect(menu.getByRole('listitem')).toHaveText(['Insights', 'Setup', 'Tests', 'Reports', 'Requests', 'History', 'Bugs', 'Team', 'Logout']);

    for (const [path, title] of TITLES) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
    }
    await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible();
    await expect(page.getByText('No runs yet.')).toBeVisible();
    await page.goto('/dashboard/nothing-here');
    await expect(page).toHaveTitle('Page not found · Fullstop QA');
  });

  test('on a phone: one logo and one menu button, the menu folds behind it and again after a choice', async ({ clientPage: page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(paths.dashboard);
    await expect(page.getByRole('img', { name: 'Fullstop QA' })).toHaveCount(1);
    const menuButtons = page.getByRole('button', { name: /menu/i });
    await expect(menuButtons).toHaveCount(1);
    const toggle = menuButtons.first();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    await expect(menu).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.getByRole('button', { name: 'Logout' })).toBeVisible();
    await menu.getByRole('link', { name: 'Tests' }).click();
    await expect(page).toHaveURL(/\/dashboard\/tests$/);
    await expect(page).toHaveTitle('Tests · Fullstop QA');
    await expect(menu).toBeHidden();
    await toggle.click();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // Nothing runs off the side of a phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
