import { paths } from '@fullstop/contracts';
import { expect, open, PUBLIC_ROUTES, test } from './fixtures.ts';

test('every public page renders without console errors or CSP violations', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  for (const route of PUBLIC_ROUTES) {
    await open(page, route);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page).toHaveTitle(/Fullstop QA/);
  }
  expect(errors).toEqual([]);
});

test('the 404 page shows the spec text, and a failed page load shows the router fallback', async ({ page }) => {
  await open(page, '/definitely/not/here');
  await expect(page.getByText('Sorry, the page you are looking for does not exist.')).toBeVisible();

  await page.route('**/assets/services-page-*.js', (route) => route.abort());
  await open(page, paths.home);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' }).locator('+ p')).not.toBeEmpty();
});

test('the header links to every public page and to Login for a visitor', async ({ page }) => {
  await open(page, paths.home);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [name, path] of [['Services', '/services'], ['Pricing', '/pricing'], ['Contact Us', '/contact-us'], ['Home', '/']] as const) {
    await nav.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(path);
    await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
  }
  await expect(nav.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
});

test('the header links to the Dashboard when the stored flag says authenticated', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('isAuthenticated', 'true'));
  await open(page, paths.pricing);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0);
});

test.describe('on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the hamburger opens and closes the menu, and a link click closes it', async ({ page }) => {
    await open(page, paths.home);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const menuLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' });
    await expect(menuLink).toBeHidden();
    await toggle.click();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await expect(menuLink).toBeVisible();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(menuLink).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menuLink.click();
    await expect(page).toHaveURL('/pricing');
    await expect(menuLink).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  test('no page scrolls sideways', async ({ page }) => {
    for (const route of PUBLIC_ROUTES) {
      await open(page, route);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, route).toBeLessThanOrEqual(0);
    }
  });
});

test('the footer has every Quick Link, Legal and Resources link and the 2024 copyright', async ({ page }) => {
  await open(page, paths.services);
  const footer = page.getByRole('contentinfo');
  const expected: Record<string, [string, string][]> = {
    'Quick Links': [['Home', '/'], ['Services', '/services'], ['Pricing', '/pricing'], ['Contact Us', '/contact-us']],
    Legal: [['Privacy Policy', '/privacy-policy'], ['Terms of Service', '/terms-of-service'], ['Cookie Policy', '/cookie-policy'], ['Disclaimer', '/disclaimer']],
    Resources: [['FAQs', '/contact-us#faq-section'], ['InHouse QA vs Us', '/pricing#comparison-section'], ['How We Work', '/#how-section']],
  };
  for (const [group, links] of Object.entries(expected)) {
    const nav = footer.getByRole('navigation', { name: group });
    await expect(nav.getByRole('heading', { name: group })).toBeVisible();
    for (const [name, href] of links) await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  await expect(footer).toContainText('© 2024 Fullstop QA');
  await footer.getByRole('link', { name: 'Terms of Service' }).click();
  await expect(page).toHaveURL('/terms-of-service');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
});

test('a skip link leads keyboard users past the header', async ({ page }) => {
  await open(page, paths.pricing);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
});
