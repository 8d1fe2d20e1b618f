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
  // Still for three readings in a row: on a loaded machine a lazy part of the page (the phone input's countries)
  // may land and move the section after one quiet tenth of a second, and the page scrolls it back after that.
  let last = Number.NaN;
  let still = 0;
  for (let i = 0; i < 60; i++) {
    const top = await page.evaluate((el) => document.getElementById(el)!.getBoundingClientRect().top, id);
    still = Math.abs(top - last) < 0.5 ? still + 1 : 0;
    if (still >= 3) return top;
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
