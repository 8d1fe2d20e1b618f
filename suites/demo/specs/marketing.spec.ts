// The tests of this file share one page and wait for what they check (site-page.ts).
import { expect, test } from './site-page.ts';

// The marketing pages of the product itself (baseURL is the demo client's website: this server).

test('home shows the tagline and the "Run all tests" demo', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText("We Test so you don't have to");
  await expect(page.getByRole('button', { name: /run all tests/i }).first()).toBeVisible();
});

test('services lists web and mobile testing', async ({ page }) => {
  await page.goto('/services');
  await expect(page.getByText(/web application/i).first()).toBeVisible();
  await expect(page.getByText(/mobile application/i).first()).toBeVisible();
});

test('pricing shows its headline and the price per feature', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Optimized QA Solutions at Competitive Rates' })).toBeVisible();
  await expect(page.getByText('$200').first()).toBeVisible();
});

test('contact us has the contact form and the FAQs', async ({ page }) => {
  await page.goto('/contact-us');
  await expect(page.locator('#contact-form-section')).toBeVisible();
  await expect(page.locator('#faq-section')).toBeVisible();
});

test('an unknown path shows the 404 page', async ({ page }) => {
  const res = await page.goto('/no-such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByText('Sorry, the page you are looking for does not exist.')).toBeVisible();
});
