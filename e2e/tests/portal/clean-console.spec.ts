import type { Request } from '@playwright/test';
import { paths } from '@fullstop/contracts';
import { collectPageProblems, enforceStrictStyleCsp } from '../../support/page-problems.ts';
import { expect, test } from '../../support/portal.ts';
import { SAMPLE_INSIGHTS } from '../../support/sample-insights.ts';

test.describe('a clean console in the portal', () => {
  test('every portal page, charts included, works under a style-src without unsafe-inline', async ({ clientPage: page, context }) => {
    await enforceStrictStyleCsp(context);
    await page.route('**/insight/fetch/all', (route) => route.fulfill({ json: SAMPLE_INSIGHTS }));
    const problems = collectPageProblems(page);
    // Each page is left only once its data is in: a request cut off by leaving would log an error of its own. Its
    // text can show before every call has answered (the client profile, on a busy machine), so the calls are counted.
    let calls = 0;
    const isCall = (request: Request) => ['fetch', 'xhr'].includes(request.resourceType());
    page.on('request', (request) => void (isCall(request) && calls++));
    page.on('requestfinished', (request) => void (isCall(request) && calls--));
    page.on('requestfailed', (request) => void (isCall(request) && calls--));
    await page.goto(paths.insights);
    await expect(page.locator('.recharts-surface')).toHaveCount(6);
    await expect.poll(() => calls).toBe(0);
    for (const [path, loaded] of [
      [paths.dashboard, 'Overview'],
      [paths.setup, 'Copy Token'],
      [paths.tests, 'No tests available.'],
      [paths.reports, 'No reports available.'],
      [paths.requests, 'No requests yet.'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByText(loaded, { exact: true })).toBeVisible();
      await expect.poll(() => calls).toBe(0);
    }
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.goto(paths.login);
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
    expect(problems).toEqual([]);
  });

  // The server answers an unknown /dashboard path with the prerendered 404 page; the client renders the
  // portal there, so it must replace that HTML rather than hydrate it (which failed with React #418).
  test('an unknown dashboard page renders the portal without a hydration error', async ({ clientPage: page }) => {
    const problems = collectPageProblems(page);
    const response = await page.goto('/dashboard/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByText('Sorry, the page you are looking for does not exist.')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
    expect(problems).toEqual([]);
  });
});
