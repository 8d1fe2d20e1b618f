import { paths } from '@fullstop/contracts';
import { expect, open, test } from './fixtures.ts';

const PAGES = [
  ['/privacy-policy', 'Privacy Policy', ['only supply data meant for public release', 'deleted after testing', 'General Data Protection Regulation', 'Data minimisation', 'Cookie Policy']],
  ['/terms-of-service', 'Terms of Service', ['twelve (12) months preceding', 'only data meant for public release', 'Test data is deleted after testing', '$200 per feature per month']],
  ['/cookie-policy', 'Cookie Policy', ['cookieConsent', 'path /', 'no advertising cookies', 'accept or reject']],
  ['/disclaimer', 'Disclaimer', ['twelve months preceding', 'data meant for public release', 'after testing']],
] as const;

for (const [route, title, phrases] of PAGES) {
  test(`${title} has its full text`, async ({ page }) => {
    await open(page, route);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    const body = page.locator('article.legal');
    for (const phrase of phrases) await expect(body).toContainText(phrase);
    expect((await body.innerText()).length).toBeGreaterThan(1500);
  });
}

test('the contents links scroll to their section with the offset', async ({ page }) => {
  await open(page, paths.privacyPolicy);
  await page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'Your rights' }).click();
  await expect(page).toHaveURL(/#section-8$/);
  await expect.poll(() => page.evaluate(() => Math.round(document.getElementById('section-8')!.getBoundingClientRect().top))).toBeLessThanOrEqual(102);
});
