import { paths } from '@fullstop/contracts';
import { DEMO, expect, loginThroughApi, test } from '../../support/portal.ts';
import { SAMPLE_INSIGHTS } from '../../support/sample-insights.ts';

/**
 * Full-page screenshots of every portal page at a phone's and a laptop's width, for a person to look at.
 * Skipped unless PORTAL_SCREENSHOTS names a folder: they assert nothing a user would notice by themselves.
 */
const folder = process.env.PORTAL_SCREENSHOTS;
const WIDTHS = [375, 1280] as const;

const SAMPLE_REPORTS = {
  Frontend: {
    'Marketing pages': { formats: [{ format: 'html', lastUpdated: '2026-11-20T09:15:00Z' }, { format: 'json', lastUpdated: '2026-11-20T09:15:00Z' }, { format: 'zip', lastUpdated: '2026-11-20T09:15:00Z' }] },
    Accessibility: { lastUpdated: '2026-11-19T17:02:00Z' },
  },
  Security: { 'Security scan': { formats: [{ format: 'html', lastUpdated: '2026-11-20T09:16:00Z' }, { format: 'xml', lastUpdated: '2026-11-20T09:16:00Z' }] } },
};

test.describe('portal screenshots', () => {
  test.skip(!folder, 'set PORTAL_SCREENSHOTS=<folder> to take them');

  for (const width of WIDTHS) {
    test(`every portal page at ${width}px`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: width < 500 ? 812 : 800 });
      const shot = (name: string) => page.screenshot({ path: `${folder}/${name}-${width}.png`, fullPage: true });

      await page.goto(paths.login);
      await expect(page.getByRole('heading', { name: 'User Login' })).toBeVisible();
      await shot('login');
      await page.getByRole('button', { name: 'Forgot Password?' }).click();
      await shot('forgot-password');

      await loginThroughApi(page, DEMO);
      await page.route('**/insight/fetch/all', (route) => route.fulfill({ json: SAMPLE_INSIGHTS }));
      await page.route('**/report/fetch/all', (route) => route.fulfill({ json: SAMPLE_REPORTS }));
      await page.goto(paths.dashboard);
      await expect(page.getByText(/Welcome to your Dashboard/)).toBeVisible();
      await shot('dashboard');
      if (width < 500) {
        await page.getByRole('button', { name: 'Dashboard menu' }).click();
        await shot('dashboard-menu-open');
      }
      await page.goto(paths.insights);
      await expect(page.getByText('Zap Insights')).toBeVisible();
      await page.waitForTimeout(1800);
      await shot('insights');
      await page.goto(paths.setup);
      await expect(page.getByLabel('API Key')).not.toHaveValue('');
      await shot('setup');
      await page.goto(paths.tests);
      await expect(page.getByRole('button', { name: 'Run All Tests' })).toBeVisible();
      await page.waitForTimeout(500);
      await shot('tests');
      await page.goto(paths.reports);
      await expect(page.getByText('Marketing pages')).toBeVisible();
      await shot('reports');
      await page.goto(paths.requests);
      await expect(page.getByRole('button', { name: 'Send request' })).toBeVisible();
      await shot('requests');
    });
  }
});
