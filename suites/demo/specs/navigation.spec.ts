import { expect as expectWithin5s, test } from '@playwright/test';

// Every check waits for what it checks for as long as the test may run (its testTimeoutMs in suite.json), not
// Playwright's 5 s: on a busy machine a page can take longer to load than that and still be right. Timeout 0 is
// Playwright's "no timeout of its own" for assertions.
const expect = expectWithin5s.configure({ timeout: 0 });

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
