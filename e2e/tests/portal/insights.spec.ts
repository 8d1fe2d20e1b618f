import type { Insights } from '@fullstop/contracts';
import { paths } from '@fullstop/contracts';
import { expect, test } from '../../support/portal.ts';
import { SAMPLE_INSIGHTS } from '../../support/sample-insights.ts';

test.describe('insights', () => {
  test('shows the four cards in order, with the load summary and charts', async ({ clientPage: page, client }) => {
    let apiKeySent: string | undefined;
    await page.route('**/insight/fetch/all', async (route) => {
      apiKeySent = route.request().headers()['x-api-key'];
      await route.fulfill({ json: SAMPLE_INSIGHTS });
    });
    await page.goto(paths.insights);
    const titles = page.locator('.portal-dashboard__main').getByRole('heading', { level: 2 });
    await expect(titles).toHaveText(['Load Insights', 'Zap Insights', 'Frontend Test Insights', 'Security Test Insights']);
    // The profile's key, not the bearer token (spec section 7).
    expect(apiKeySent).toBe(client.apiKey);

    const load = page.getByRole('region', { name: 'Load Insights' });
    // 1280px wide: the three panels side by side, no carousel.
    for (const panel of ['Requests Overview', 'Response Times', 'Data Transfer']) await expect(load.getByText(panel)).toBeVisible();
    await expect(load.getByRole('region', { name: 'Load test panels' })).toHaveCount(0);
    await expect(load.getByText('Success Rate').locator('..')).toContainText('99.20%');
    await expect(load.getByText('Failed Requests Rate').locator('..')).toContainText('0.80%');
    await expect(load.getByText('Custom Metric Threshold Met').locator('..')).toContainText('Yes');
    await expect(load.locator('.recharts-surface')).toHaveCount(3);

    const zap = page.getByRole('region', { name: 'Zap Insights' });
    await expect(zap.getByRole('list', { name: 'Alerts by risk' }).getByRole('listitem')).toHaveText(['High1', 'Medium3', 'Low6', 'Informational9', 'False Positives2']);
    await expect(page.getByText('Test Duration: 38.4 seconds')).toBeVisible();
    await expect(page.getByText('Test Duration: 6.2 seconds')).toBeVisible();
  });

  test('a card only for data that exists; a run with no requests shows a dash, not NaN', async ({ clientPage: page }) => {
    const onlyLoad: Insights = { load: { ...SAMPLE_INSIGHTS.load!, totalRequests: 0, successfulRequests: 0, failedRequestsCount: 0 } };
    await page.route('**/insight/fetch/all', (route) => route.fulfill({ json: onlyLoad }));
    await page.goto(paths.insights);
    await expect(page.locator('.portal-dashboard__main').getByRole('heading', { level: 2 })).toHaveText(['Load Insights']);
    await expect(page.getByText('Success Rate').locator('..')).toContainText('—');
    await expect(page.locator('body')).not.toContainText('NaN');
  });

  test('on a phone the load panels become a carousel', async ({ clientPage: page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.route('**/insight/fetch/all', (route) => route.fulfill({ json: SAMPLE_INSIGHTS }));
    await page.goto(paths.insights);
    const carousel = page.getByRole('region', { name: 'Load test panels' });
    await expect(carousel).toBeVisible();
    await carousel.getByRole('button', { name: 'Show panel 3' }).click();
    await expect(carousel.getByRole('group', { name: '3 of 3' })).toBeInViewport();
  });
});
