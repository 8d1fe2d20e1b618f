import { paths } from '@fullstop/contracts';
import { expect, open, settledTop, test } from './fixtures.ts';

test('a route change without a hash scrolls to the top', async ({ page }) => {
  await open(page, paths.home);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL('/pricing');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

for (const [url, id] of [
  ['/pricing#comparison-section', 'comparison-section'],
  ['/contact-us#faq-section', 'faq-section'],
  ['/#how-section', 'how-section'],
  ['/contact-us#form-section', 'form-section'],
] as const) {
  test(`opening ${url} lands its section 100 px below the top`, async ({ page }) => {
    await open(page, url);
    expect(Math.abs((await settledTop(page, id)) - 100)).toBeLessThanOrEqual(2);
  });
}

test('footer anchor links scroll smoothly to their section with the offset', async ({ page }) => {
  await open(page, paths.services);
  const link = page.getByRole('contentinfo').getByRole('link', { name: 'InHouse QA vs Us' });
  await link.scrollIntoViewIfNeeded();
  // The page is not reloaded by client-side navigation, so this listener sees every scroll step.
  await page.evaluate(() => {
    (window as unknown as { positions: number[] }).positions = [];
    window.addEventListener('scroll', () => (window as unknown as { positions: number[] }).positions.push(window.scrollY));
  });
  await link.click();
  await expect(page).toHaveURL('/pricing#comparison-section');
  expect(Math.abs((await settledTop(page, 'comparison-section')) - 100)).toBeLessThanOrEqual(2);
  // Smooth: the position moved through intermediate values rather than jumping once (a jump records one or two
  // positions; a loaded machine samples a smooth scroll a few times only).
  const positions = await page.evaluate(() => (window as unknown as { positions: number[] }).positions);
  expect(new Set(positions).size).toBeGreaterThan(2);
});

const INDICATORS = [
  ['/', [['What We Do', 'what-section'], ['Why Us', 'why-section'], ['How We Work', 'how-section']]],
  ['/pricing', [['Our Pricing', 'feature-section'], ['Why Choose Us?', 'comparison-section']]],
  ['/contact-us', [['Contact Form', 'contact-form-section'], ['FAQs', 'faq-section']]],
] as const;

for (const [route, items] of INDICATORS) {
  test(`the side scroll indicator on ${route} highlights the section under the midpoint and jumps on click`, async ({ page }) => {
    await open(page, route);
    const indicator = page.getByRole('navigation', { name: 'Sections on this page' });
    await expect(indicator.getByRole('button')).toHaveCount(items.length);
    for (const [label, id] of [...items].reverse()) {
      await indicator.getByRole('button', { name: label }).click();
      expect(Math.abs((await settledTop(page, id)) - 100)).toBeLessThanOrEqual(2);
      const underMidpoint = await page.evaluate((sectionId) => {
        const r = document.getElementById(sectionId)!.getBoundingClientRect();
        return r.top <= innerHeight / 2 && r.bottom > innerHeight / 2;
      }, id);
      if (underMidpoint) await expect(indicator.getByRole('button', { name: label })).toHaveAttribute('aria-current', 'true');
    }
    // Scrolling by hand moves the highlight to whatever section holds the midpoint.
    const [firstLabel, firstId] = items[0];
    await page.evaluate((sectionId) => {
      const el = document.getElementById(sectionId)!;
      window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - innerHeight / 2 + 20);
    }, firstId);
    await expect(indicator.getByRole('button', { name: firstLabel })).toHaveAttribute('aria-current', 'true');
    await expect(indicator.locator('[aria-current="true"]')).toHaveCount(1);
  });
}

test('at the top of the home page no section is highlighted', async ({ page }) => {
  await open(page, paths.home);
  await expect(page.getByRole('navigation', { name: 'Sections on this page' }).locator('[aria-current="true"]')).toHaveCount(0);
});
