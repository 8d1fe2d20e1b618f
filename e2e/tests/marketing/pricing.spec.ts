import { paths } from '@fullstop/contracts';
import { expect, open, test } from './fixtures.ts';

const PILLS = [
  'Performance Test', 'Load Test', 'Login', 'Cart', 'Security', 'Payment', 'Search Functionality', 'User Registration',
  'Data Export', 'API Integration', 'Multi-language Support', 'Mobile Responsiveness', 'Cross-browser Testing',
  'Accessibility', 'Database Interaction',
];

test('the headline, the 15 pills, the comparison and the call to action', async ({ page }) => {
  await open(page, paths.pricing);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Optimized QA Solutions at Competitive Rates');
  const pills = page.getByRole('list', { name: 'Features we test' }).getByRole('listitem');
  await expect(pills).toHaveText(PILLS);
  const table = page.getByRole('table', { name: 'In-House QA compared with Fullstop' });
  await expect(table).toContainText('$48,000 to $72,000 a year');
  await expect(table).toContainText('$200 per feature per month');
  await expect(table).toContainText('3 testing scenarios per feature');
  await expect(table).toContainText('Start within 48 hours');
  await expect(table).toContainText('Month to month');
  await expect(table).toContainText('Unlimited, via portal or API');
  await page.getByRole('link', { name: 'Contact Us', exact: true }).last().click();
  await expect(page).toHaveURL('/contact-us');
});

test('five random pills are highlighted and reshuffled every 5000 ms', async ({ page }) => {
  await page.clock.install();
  await open(page, paths.pricing);
  // From here on, time moves only when the test says so.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  const highlighted = () => page.locator('.pills li[data-highlighted="true"]').allTextContents();
  await expect.poll(async () => (await highlighted()).length).toBe(5);

  // Find the moment of a reshuffle in 100 ms steps, so the rest of the test knows the timer's phase.
  const start = await highlighted();
  let stepped = 0;
  while (JSON.stringify(await highlighted()) === JSON.stringify(start) && stepped < 5200) {
    await page.clock.runFor(100);
    stepped += 100;
    await page.waitForTimeout(20);
  }
  expect(stepped).toBeLessThanOrEqual(5000);
  const first = await highlighted();

  await page.clock.runFor(4800);
  await page.waitForTimeout(150);
  expect(await highlighted()).toEqual(first);
  await page.clock.runFor(300);
  await expect.poll(highlighted).not.toEqual(first);
  const second = await highlighted();
  expect(second).toHaveLength(5);
  expect(second.every((p) => PILLS.includes(p))).toBe(true);
  await page.clock.runFor(5000);
  await expect.poll(highlighted).not.toEqual(second);
  expect(await highlighted()).toHaveLength(5);
});
