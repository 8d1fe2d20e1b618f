import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { apiPaths, paths } from '@fullstop/contracts';
import { createClient, importSuite } from '../../support/operator.ts';
import { expect, loginThroughApi, test } from '../../support/portal.ts';

/** A quick API test against a site that does not exist: it fails at once, and its reports are written. */
const SUITE = {
  version: 1,
  name: 'Report sandbox e2e',
  groups: [{ name: 'API', tests: [{ name: 'Sandbox probe', kind: 'api', options: { requests: [{ name: 'home', path: '/' }] } }] }],
};

/**
 * What a hostile site could get into a report if an escape were ever missed: a script that reads the portal's
 * tokens and marks the page, and an inline handler that does the same.
 */
const PLANTED = `
<script>document.title = 'PWNED ' + localStorage.getItem('accessToken'); document.documentElement.dataset.pwned = 'script';</script>
<img src="x" onerror="document.documentElement.dataset.pwned = 'onerror'; document.title = 'PWNED ' + localStorage.getItem('accessToken')">
`;

function reportFiles(dir: string, name: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? reportFiles(path.join(dir, e.name), name) : e.name === name ? [path.join(dir, e.name)] : [],
  );
}

test.describe('reports open isolated from the portal', () => {
  test('a script planted in an HTML report neither runs nor reaches the portal’s tokens', async ({ page, request, context, baseURL }) => {
    test.setTimeout(90_000);
    const client = await createClient(request, { label: 'sandbox', website: 'https://site.invalid' });
    await importSuite(request, client.clientId, SUITE);
    const run = await request.get(`${apiPaths.runAllTests}?wait=true&timeout=60`, { headers: { 'x-api-key': client.apiKey } });
    expect(run.status(), await run.text()).toBe(200);

    // Plant the payload in the report the server keeps on disk (as a missed escape would leave it).
    const dataDir = process.env.E2E_DATA_DIR!;
    const files = reportFiles(path.join(dataDir, 'storage', 'runs', client.clientId), 'report.html');
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) appendFileSync(file, PLANTED);
    const planted = readFileSync(files[0]!, 'utf8');

    // Control: the same HTML in the portal's own origin without the sandbox would run and read the token.
    const control = await context.newPage();
    await loginThroughApi(control, client);
    await control.route('**/__control-report', (route) => route.fulfill({ contentType: 'text/html', body: planted }));
    await control.goto(`${baseURL}/__control-report`);
    await expect(control).toHaveTitle(/^PWNED ey/);
    await control.close();

    const session = await loginThroughApi(page, client);
    await page.goto(paths.reports);
    const report = page.getByRole('listitem').filter({ hasText: 'Sandbox probe' });
    const opened = page.waitForEvent('popup');
    await report.getByRole('button', { name: 'Open Sandbox probe as HTML' }).click();
    const tab = await opened;

    // Opened from the server (not a blob: URL, which would share the portal's origin), in an opaque origin.
    await expect.poll(() => tab.url()).toMatch(new RegExp(`^${baseURL}/report/view/Sandbox%20probe/html\\?token=`));
    await tab.waitForLoadState('load');
    await expect(tab.locator('body')).toContainText('Sandbox probe');
    await tab.waitForTimeout(500);
    expect(await tab.title()).not.toMatch(/PWNED/);
    expect(await tab.evaluate(() => document.documentElement.dataset.pwned ?? 'nothing ran')).toBe('nothing ran');
    expect(await tab.evaluate(() => window.origin)).toBe('null');
    const storage = await tab.evaluate(() => {
      try {
        return `read: ${localStorage.getItem('accessToken')}`;
      } catch (error) {
        return `refused: ${(error as Error).name}`;
      }
    });
    expect(storage).toBe('refused: SecurityError');
    expect(await tab.evaluate(() => window.opener)).toBeNull();

    // The portal still has its token; the report never saw it.
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBe(session.accessToken);
  });
});
