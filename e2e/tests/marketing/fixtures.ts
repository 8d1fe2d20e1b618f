import { marketingPaths } from '@fullstop/contracts';
import { test as base, expect, type Page } from '@playwright/test';

export const PUBLIC_ROUTES = marketingPaths;

/** Opens a page and waits until React has hydrated it, so clicks are not lost on the prerendered HTML. */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1);
}

/** Top of an element relative to the viewport, once smooth scrolling has settled. */
export async function settledTop(page: Page, id: string): Promise<number> {
  let last = Number.NaN;
  for (let i = 0; i < 40; i++) {
    const top = await page.evaluate((el) => document.getElementById(el)!.getBoundingClientRect().top, id);
    if (Math.abs(top - last) < 0.5) return top;
    last = top;
    await page.waitForTimeout(100);
  }
  return last;
}

/**
 * `consented` (default true) answers the cookie popup before the page loads, so it covers nothing;
 * the cookie tests turn it off.
 */
export const test = base.extend<{ consented: boolean }>({
  consented: [true, { option: true }],
  page: async ({ page, consented }, use) => {
    if (consented) await page.addInitScript(() => localStorage.setItem('cookieConsent', 'true'));
    await use(page);
  },
});

export { expect };
