import { paths } from '@fullstop/contracts';
import type { Page } from '@playwright/test';
import { expect, open, test } from './fixtures.ts';

test('the contact page has its hero, anchors, and a phone field defaulting to the US', async ({ page }) => {
  await open(page, paths.contactUs);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const id of ['contact-section', 'contact-form-section', 'faq-section', 'form-section']) {
    await expect(page.locator(`#${id}`)).toBeAttached();
  }
  await expect(page.getByRole('combobox', { name: 'Phone number country' })).toHaveValue('US');
  const phone = page.getByLabel('Phone number', { exact: true });
  await phone.fill('2025550123');
  await expect(phone).toHaveValue('(202) 555-0123');
});

test('an empty submission names every required field', async ({ page }) => {
  await open(page, paths.contactUs);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Name is required.')).toBeVisible();
  await expect(page.getByText('Phone number is required.')).toBeVisible();
  await expect(page.getByText('Message is required.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('textbox', { name: 'Name' }).fill('Ada');
  await expect(page.getByText('Name is required.')).toHaveCount(0);
});

async function fillForm(page: Page) {
  await page.getByRole('textbox', { name: 'Name' }).fill('Ada Lovelace');
  await page.getByLabel('Phone number', { exact: true }).fill('2025550123');
  await page.getByRole('textbox', { name: 'Message' }).fill('Please test our checkout & search.');
}

test('a wrong captcha answers with the spec alert and draws a new code', async ({ page }) => {
  await open(page, paths.contactUs);
  await fillForm(page);
  const code = page.getByTestId('captcha-code');
  await expect(code).toHaveText(/^[A-Za-z0-9]{6}$/);
  const before = await code.textContent();
  await page.getByLabel('Enter the CAPTCHA code').fill('zzzzzz' === before ? 'yyyyyy' : 'zzzzzz');
  const alerts: string[] = [];
  page.once('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect.poll(() => alerts).toEqual(['CAPTCHA is incorrect. Please try again.']);
  await expect(code).not.toHaveText(before!);
  await expect(page.getByTestId('mailto-link')).toHaveCount(0);
});

test('the refresh button draws a new captcha', async ({ page }) => {
  await open(page, paths.contactUs);
  const code = page.getByTestId('captcha-code');
  await expect(code).toHaveText(/^[A-Za-z0-9]{6}$/);
  const before = await code.textContent();
  await page.getByRole('button', { name: 'Get a new CAPTCHA code' }).click();
  await expect(code).not.toHaveText(before!);
  await expect(code).toHaveText(/^[A-Za-z0-9]{6}$/);
});

test('a valid submission opens the mail client addressed to the contact mailbox', async ({ page }) => {
  await open(page, paths.contactUs);
  await fillForm(page);
  const code = await page.getByTestId('captcha-code').textContent();
  await page.getByLabel('Enter the CAPTCHA code').fill(code!);
  await page.getByRole('button', { name: 'Send message' }).click();
  const link = page.getByTestId('mailto-link');
  await expect(link).toBeVisible();
  const href = new URL((await link.getAttribute('href'))!);
  expect(href.protocol).toBe('mailto:');
  expect(href.pathname).toBe('contact@fullstop.test');
  expect(href.searchParams.get('subject')).toBe('Contact Us');
  expect(href.searchParams.get('body')).toBe('Name: Ada Lovelace\nContact Number: +12025550123\nMessage: Please test our checkout & search.');
  await expect(page).toHaveURL('/contact-us');
});

test('FAQ items open and close one by one', async ({ page }) => {
  await open(page, '/contact-us#faq-section');
  const items = page.locator('#faq-section details');
  expect(await items.count()).toBeGreaterThanOrEqual(6);
  const first = items.nth(0);
  const second = items.nth(1);
  await first.locator('summary').click();
  await expect(first).toHaveAttribute('open', '');
  await expect(first.locator('p')).toBeVisible();
  await expect(second).not.toHaveAttribute('open', '');
  await second.locator('summary').click();
  await expect(second).toHaveAttribute('open', '');
  await expect(first).toHaveAttribute('open', '');
  await first.locator('summary').click();
  await expect(first).not.toHaveAttribute('open', '');
  await expect(second).toHaveAttribute('open', '');
  await second.locator('summary').press('Enter');
  await expect(second).not.toHaveAttribute('open', '');
});
