import { paths, testLatestResponse } from '@fullstop/contracts';
import { createClient, importSuite } from '../../support/operator.ts';
import { expect, loginThroughApi, test } from '../../support/portal.ts';
import { shots } from '../../support/screenshots.ts';

/**
 * A security scan that could not run (its website refuses the scan here; with the server's WAPITI_PATH pointing
 * at nothing, because wapiti is missing) keeps its Zap card, which says the scan could not run and why, as does
 * the Tests page: nothing vanishes. The reason shown is the one the server recorded (GET /test/latest).
 */
test('the Zap card and the Tests page say the scan could not run and why', async ({ page, request }) => {
  test.setTimeout(180_000);
  // A loopback website: refused to the scan of an ordinary client, so the scan ends as an error at once.
  const client = await createClient(request, { label: 'scan-not-run', website: 'http://127.0.0.1:9' });
  await importSuite(request, client.clientId, {
    version: 1,
    groups: [{ name: 'Security', tests: [{ name: 'zap scan', kind: 'security-scan', options: { maxPages: 1 } }] }],
  });
  const headers = { 'x-api-key': client.apiKey };
  const run = await request.get('/test/run/zap%20scan?wait=true&timeout=150', { headers, timeout: 170_000 });
  expect(run.status(), await run.text()).toBe(200);
  expect(((await run.json()) as { status: string }).status).toBe('error');
  const latest = testLatestResponse.parse(await (await request.get('/test/latest', { headers })).json());
  const scan = latest.tests.find((t) => t.testName === 'zap scan');
  expect(scan).toMatchObject({ kind: 'security-scan', status: 'error' });
  const why = scan!.error!;
  expect(why.length).toBeGreaterThan(10);

  await loginThroughApi(page, client);
  await page.goto(paths.insights);
  const zap = page.getByRole('region', { name: 'Zap Insights' });
  await expect(zap).toBeVisible();
  await expect(zap).toContainText('The security scan “zap scan” could not run on');
  await expect(zap).toContainText(why);
  await expect(zap).toContainText('There are no figures to show until it runs.');
  await expect(page.getByText('No insights available.')).toHaveCount(0);
  await shots(page, 'insights-not-run');

  await page.goto(paths.tests);
  const row = page.getByRole('listitem').filter({ hasText: 'zap scan' });
  await expect(row.getByTestId('live-status')).toHaveText(`Could not run: ${why}`);
  await shots(page, 'tests-not-run');
});
