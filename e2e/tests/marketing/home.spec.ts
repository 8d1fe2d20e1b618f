import { paths } from '@fullstop/contracts';
import { expect, open, test } from './fixtures.ts';

test('home has its four sections and the tagline', async ({ page }) => {
  await open(page, paths.home);
  for (const id of ['welcome-section', 'what-section', 'why-section', 'how-section']) {
    await expect(page.locator(`#${id}`)).toBeAttached();
  }
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("We Test so you don't have to (period).");
});

test('"Run all tests" removes the first cover for good', async ({ page }) => {
  await open(page, paths.home);
  const cover = page.getByTestId('first-cover');
  await expect(cover).toBeVisible();
  await expect(page.getByRole('img', { name: 'Test suite: all 6 tests passed' })).toBeAttached();
  await page.getByRole('button', { name: 'Run all tests' }).click();
  await expect(cover).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Run all tests' })).toHaveCount(0);
  await expect(page.getByText('All 6 tests passed.')).toBeVisible();
  // Scrolling around does not bring it back.
  await page.evaluate(() => window.scrollTo(0, 2000));
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(cover).toHaveCount(0);
});

test('the second cover hides once scrolled past 1.3 times its image block height', async ({ page }) => {
  await open(page, paths.home);
  const cover = page.getByTestId('second-cover');
  await expect(cover).toBeVisible();
  const height = await page.getByTestId('second-image-block').evaluate((el) => (el as HTMLElement).offsetHeight);
  expect(height).toBeGreaterThan(100);
  await page.evaluate((y) => window.scrollTo(0, y), Math.floor(1.3 * height) - 20);
  await page.waitForTimeout(200);
  await expect(cover).toBeVisible();
  await page.evaluate((y) => window.scrollTo(0, y), Math.ceil(1.3 * height) + 20);
  await expect(cover).toBeHidden();
});

test('How We Work shows the process diagram and its steps', async ({ page }) => {
  await open(page, '/#how-section');
  const how = page.locator('#how-section');
  await expect(how.getByText('How We Work', { exact: true })).toBeVisible();
  await expect(how.getByRole('img', { name: /How We Work: onboard within 48 hours/ })).toBeVisible();
  await expect(how.getByRole('listitem')).toHaveCount(5);
});
