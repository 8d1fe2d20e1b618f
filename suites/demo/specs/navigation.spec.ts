// The tests of this file share one page and wait for what they check (site-page.ts).
import { expect, test } from './site-page.ts';

test('the header links reach every marketing page', async ({ page }) => {
  await page.goto('/');
  const header = page.getByRole('banner');
  for (const [name, path] of [
    ['Services', '/services'],
    ['Pricing', '/pricing'],
    ['Contact Us', '/contact-us'],
    ['Home', '/'],
  ] as const) {
    await header.getByRole('link', { name, exact: true }).first().click();
    await expect(page).toHaveURL((url) => url.pathname === path);
  }
});

test('the portal sends a visitor to the login page', async ({ page }) => {
  await page.goto('/dashboard');
  // The login page may carry where to return to (?next=...): the path is what says the visitor was sent there.
  await expect(page).toHaveURL((url) => url.pathname === '/login');
  await expect(page.getByText('User Login').first()).toBeVisible();
});

test('the login page has the form and the way to register', async ({ page }) => {
  // No wrong-password attempt here: it would count against the login throttle of the address running the suite.
  await page.goto('/login');
  await expect(page.getByLabel(/email/i).first()).toBeVisible();
  await expect(page.getByLabel(/password/i).first()).toBeVisible();
  await expect(page.getByText(/Don.t have an account\?/)).toBeVisible();
});
