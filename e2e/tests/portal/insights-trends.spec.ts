import type { InsightTrends } from '@fullstop/contracts';
import { paths } from '@fullstop/contracts';
import { expect, test } from '../../support/portal.ts';
import { SAMPLE_INSIGHTS } from '../../support/sample-insights.ts';

const RUNS = ['2026-11-20T09:00:00Z', '2026-11-21T09:00:00Z', '2026-11-23T10:42:00Z'];
const at = (i: number) => ({ runId: `run-${i}`, at: RUNS[i]! });
const LAST = RUNS[2]!;

const TRENDS: InsightTrends = {
  load: { runAt: LAST, points: [0, 1, 2].map((i) => ({ ...at(i), p95Ms: 100 + i * 10, averageMs: 40, failedRate: 0.8 })) },
  zap: { runAt: LAST, points: [0, 1, 2].map((i) => ({ ...at(i), High: 2 - i, Medium: 3, Low: 6, Informational: 9 })) },
  'frontend-report': { runAt: LAST, points: [0, 1, 2].map((i) => ({ ...at(i), passRate: 80 + i * 5 })) },
  'security-report': { runAt: LAST, points: [0, 1, 2].map((i) => ({ ...at(i), passRate: 91.7 })) },
};

test.describe('insights: run dates, trends and figures that read as numbers', () => {
  test('each card names its run and draws its trend; values stand on the charts', async ({ clientPage: page }) => {
    await page.route('**/insight/fetch/all', (route) => route.fulfill({ json: SAMPLE_INSIGHTS }));
    await page.route('**/insight/trends', (route) => route.fulfill({ json: TRENDS }));
    await page.goto(paths.insights);
    const main = page.locator('.portal-dashboard__main');
    await expect(main.getByRole('heading', { level: 2 })).toHaveText(['Load Insights', 'Zap Insights', 'Frontend Test Insights', 'Security Test Insights']);

    // The one date format (en-GB, decision 0094) in the reader's time zone: the text the browser writes for that instant.
    const expected = await page.evaluate(
      (iso) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso)),
      LAST,
    );
    await expect(main.getByText(/^From the run of /)).toHaveText(Array(4).fill(`From the run of ${expected}`));

    const load = page.getByRole('region', { name: 'Load Insights' });
    await expect(load.getByRole('figure', { name: 'Load trend: 95th percentile and failed rate' })).toBeVisible();
    await expect(load.getByRole('figure', { name: 'Load trend: 95th percentile and failed rate' })).toContainText('last 3 runs');
    // Response times: each value at its point, so avg (42.5) and p95 (120) read beside a max of 310.
    const times = load.getByRole('figure').filter({ hasText: 'Response Times' });
    for (const value of ['42.5', '310', '3', '120']) await expect(times.locator('.recharts-label-list').getByText(value, { exact: true })).toBeVisible();
    // Data transfer: human units on the bars.
    const transfer = load.getByRole('figure').filter({ hasText: 'Data Transfer' });
    await expect(transfer.getByText('180 kB', { exact: true }).last()).toBeVisible();
    await expect(transfer.getByText('5.4 MB', { exact: true }).last()).toBeVisible();

    await expect(page.getByRole('figure', { name: 'Zap trend: alerts by risk' })).toBeVisible();
    const frontendTrend = page.getByRole('figure', { name: 'Frontend Test Insights trend: pass rate' });
    await expect(frontendTrend).toBeVisible();
    await expect(frontendTrend).toContainText('90%');
    await expect(page.getByRole('figure', { name: 'Security Test Insights trend: pass rate' })).toContainText('91.7%');
  });

  test('a scan without alerts says "No alerts found"; without trends the spec cards still show', async ({ clientPage: page }) => {
    await page.route('**/insight/fetch/all', (route) =>
      route.fulfill({ json: { zap: { High: 0, Medium: 0, Low: 0, Informational: 0, 'False Positives': 0 } } }),
    );
    await page.route('**/insight/trends', (route) => route.fulfill({ status: 500, json: { message: 'down' } }));
    await page.goto(paths.insights);
    const zap = page.getByRole('region', { name: 'Zap Insights' });
    await expect(zap.getByText('No alerts found')).toBeVisible();
    await expect(zap.locator('.recharts-surface')).toHaveCount(0);
    await expect(zap.getByRole('list', { name: 'Alerts by risk' }).getByRole('listitem')).toHaveText(['High0', 'Medium0', 'Low0', 'Informational0', 'False Positives0']);
    await expect(zap.getByText(/^From the run of /)).toHaveCount(0);
  });
});
