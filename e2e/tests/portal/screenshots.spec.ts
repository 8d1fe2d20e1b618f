import { paths } from '@fullstop/contracts';
import { DEMO, expect, loginThroughApi, test } from '../../support/portal.ts';
import { SAMPLE_INSIGHTS } from '../../support/sample-insights.ts';
import { tinyApk } from '../../support/zip.ts';

/**
 * Full-page screenshots of every portal page at a phone's and a laptop's width, for a person to look at.
 * Skipped unless PORTAL_SCREENSHOTS names a folder: they assert nothing a user would notice by themselves.
 */
const folder = process.env.PORTAL_SCREENSHOTS;
/** Set PORTAL_SCREENSHOTS_LIVE=1 to show the demo's real insights (after a run) instead of the sample ones. */
const live = process.env.PORTAL_SCREENSHOTS_LIVE === '1';
const day = (n: number) => `2026-11-${String(10 + n).padStart(2, '0')}T10:42:00Z`;
const SAMPLE_TRENDS = {
  load: { runAt: day(9), points: [...Array(10).keys()].map((n) => ({ runId: `r${n}`, at: day(n), p95Ms: 100 + ((n * 37) % 60), averageMs: 40, failedRate: (n % 4) * 0.4 })) },
  zap: { runAt: day(9), points: [...Array(10).keys()].map((n) => ({ runId: `r${n}`, at: day(n), High: n < 5 ? 1 : 0, Medium: 3, Low: 6 - (n % 3), Informational: 9 })) },
  'frontend-report': { runAt: day(9), points: [...Array(10).keys()].map((n) => ({ runId: `r${n}`, at: day(n), passRate: 80 + (n % 5) * 4 })) },
  'security-report': { runAt: day(9), points: [...Array(10).keys()].map((n) => ({ runId: `r${n}`, at: day(n), passRate: 91.7 })) },
};
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
      await page.goto(`${paths.login}?session=ended&next=${encodeURIComponent(paths.tests)}`);
      await expect(page.getByText('Your session has ended. Please log in again.')).toBeVisible();
      await shot('login-session-ended');

      await loginThroughApi(page, DEMO);
      if (!live) {
        await page.route('**/insight/fetch/all', (route) => route.fulfill({ json: SAMPLE_INSIGHTS }));
        await page.route('**/insight/trends', (route) => route.fulfill({ json: SAMPLE_TRENDS }));
      }
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
      await page.goto(paths.history);
      await expect(page.getByRole('heading', { name: 'History' })).toBeVisible();
      await shot('history');
      await page.goto(paths.setup);
      await page.getByRole('button', { name: 'Generate New Key' }).click();
      await shot('setup-confirm');
      await page.getByRole('button', { name: 'Cancel' }).click();
      page.once('dialog', (dialog) => void dialog.accept());
      const android = page.locator('.portal-upload').filter({ hasText: 'Android APK' });
      if (await android.getByRole('button', { name: 'Re-upload' }).isVisible()) await android.getByRole('button', { name: 'Re-upload' }).click();
      await page.getByLabel('Choose the Android APK file').setInputFiles({ name: 'acme-shop-release.apk', mimeType: 'application/vnd.android.package-archive', buffer: await tinyApk() });
      await expect(android.getByRole('button', { name: 'Re-upload' })).toBeVisible();
      await shot('setup-uploaded');
    });
  }
});
