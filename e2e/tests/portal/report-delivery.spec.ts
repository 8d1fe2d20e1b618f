import { readFileSync } from 'node:fs';
import { apiPaths, paths, RUN_REPORT_GROUP, RUN_REPORT_NAME, type ReportGroups } from '@fullstop/contracts';
import type { Page } from '@playwright/test';
import { createClient, type E2eClient, importSuite } from '../../support/operator.ts';
import { collectPageProblems } from '../../support/page-problems.ts';
import { expect, loginThroughApi, test } from '../../support/portal.ts';

/** A quick API test against a site that does not exist: it fails at once, and every report is written. */
const SUITE = {
  version: 1,
  name: 'Report delivery e2e',
  groups: [{ name: 'Frontend', tests: [{ name: 'Marketing pages', kind: 'api', options: { requests: [{ name: 'home', path: '/' }] } }] }],
};

/** `<client>-<test>-<yyyy-mm-dd>.<ext>`: the client is `E2E delivery-<pid>-<time>-<n>`, slugged. */
const fileName = (test: string, ext: string) => new RegExp(`^e2e-delivery-\\d+-\\d+-\\d+-${test}-\\d{4}-\\d{2}-\\d{2}\\.${ext}$`);

async function runAll(page: Page, client: E2eClient): Promise<void> {
  const run = await page.request.get(`${apiPaths.runAllTests}?wait=true&timeout=60`, { headers: { 'x-api-key': client.apiKey } });
  expect(run.status(), await run.text()).toBe(200);
  // The worker writes the run report just after the run ends (its pdf is printed on its first download): wait until it is listed.
  await expect
    .poll(async () => {
      const res = await page.request.get(apiPaths.reports, { headers: { 'x-api-key': client.apiKey } });
      return res.ok() ? Object.keys(((await res.json()) as ReportGroups)[RUN_REPORT_GROUP]?.[RUN_REPORT_NAME] ?? {}).length : 0;
    }, { timeout: 60_000 })
    .toBeGreaterThan(0);
}

test.describe('opening reports from the Reports page', () => {
  // A reader in Berlin: the report's times read in German and Berlin time.
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

  test('html opens styled, json readable, zip, xml and pdf download under their names, and the Full runs report opens', async ({ page, request, context }) => {
    test.setTimeout(150_000);
    const client = await createClient(request, { label: 'delivery', website: 'https://site.invalid' });
    await importSuite(request, client.clientId, SUITE);
    await loginThroughApi(page, client);
    await runAll(page, client);

    await page.goto(paths.reports);
    await expect(page.getByRole('button', { name: new RegExp(`^${RUN_REPORT_GROUP}`) })).toBeVisible();
    const button = (name: string, format: string) =>
      page.getByRole('listitem').filter({ hasText: name }).getByRole('button', { name: `Open ${name} as ${format}` });
    for (const format of ['HTML', 'JSON', 'PDF', 'XML', 'ZIP']) await expect(button('Marketing pages', format)).toHaveText(format);

    // HTML: a tab of its own, served with the report's CSP, its inline styles applied and nothing refused.
    const htmlTab = page.waitForEvent('popup');
    await button('Marketing pages', 'HTML').click();
    const tab = await htmlTab;
    const problems = collectPageProblems(tab);
    await expect.poll(() => tab.url()).toMatch(/\/report\/view\/Marketing%20pages\/html\?token=/);
    await tab.waitForLoadState('load');
    await expect(tab.getByRole('heading', { level: 1 })).toContainText('Marketing pages');
    const looks = await tab.evaluate(() => {
      const card = document.querySelector('.card');
      return {
        font: getComputedStyle(document.body).fontFamily,
        margin: getComputedStyle(document.body).marginTop,
        cardBorder: card ? getComputedStyle(card).borderTopWidth : 'no card',
      };
    });
    expect(looks.font).not.toMatch(/Times/);
    expect(looks.font).toContain('system-ui');
    expect(looks.margin).toBe('0px');
    expect(looks.cardBorder).toBe('1px');
    // Times in the reader's own locale and zone, not the file's English UTC: "23. Nov. 2026, 13:00 MEZ".
    await expect(tab.locator('time').first()).toHaveText(/^\d{1,2}\. \S+ \d{4}, \d{2}:\d{2} (MEZ|MESZ)$/);
    // The report holds no script; the portal page's own init script (the cookie answer), which Playwright runs in
    // the popup too, is refused by the sandbox: that refusal is the sandbox working, not a problem of the report.
    expect(await tab.content()).not.toContain('<script');
    expect(problems.filter((p) => !/Blocked script execution .* the document's frame is sandboxed/.test(p))).toEqual([]);
    await tab.close();

    // JSON: readable in a tab of its own, from the server (not a blob: of the portal's origin).
    const jsonTab = page.waitForEvent('popup');
    await button('Marketing pages', 'JSON').click();
    const json = await jsonTab;
    await expect.poll(() => json.url()).toMatch(/\/report\/view\/Marketing%20pages\/json\?token=/);
    await expect(json.locator('body')).toContainText('"testName": "Marketing pages"');
    await json.close();

    // ZIP, XML and PDF: downloads under the client's and the test's name, with no tab opened for them.
    for (const [format, ext] of [['ZIP', 'zip'], ['XML', 'xml'], ['PDF', 'pdf']] as const) {
      const download = page.waitForEvent('download');
      await button('Marketing pages', format).click();
      const file = await download;
      expect(file.suggestedFilename(), format).toMatch(fileName('marketing-pages', ext));
      expect(await file.failure()).toBeNull();
      if (ext === 'pdf') {
        const bytes = readFileSync((await file.path())!);
        expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        expect((bytes.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length).toBeGreaterThanOrEqual(1);
      }
    }
    await page.waitForTimeout(500);
    expect(context.pages()).toHaveLength(1);

    // The run report of the Run all: listed under Full runs, opens styled, downloads as pdf.
    const runTab = page.waitForEvent('popup');
    await button(RUN_REPORT_NAME, 'HTML').click();
    const run = await runTab;
    await expect(run.getByRole('heading', { level: 1 })).toContainText('all tests');
    await expect(run.getByText('Marketing pages').first()).toBeVisible();
    await run.close();
    const runPdf = page.waitForEvent('download');
    await button(RUN_REPORT_NAME, 'PDF').click();
    expect((await runPdf).suggestedFilename()).toMatch(fileName('run-all-tests', 'pdf'));
    expect(context.pages()).toHaveLength(1);
  });

  test('another client can open neither our report nor its view link', async ({ page, request }) => {
    test.setTimeout(90_000);
    const ours = await createClient(request, { label: 'delivery', website: 'https://site.invalid' });
    const theirs = await createClient(request, { label: 'delivery-other' });
    await importSuite(request, ours.clientId, SUITE);
    await runAll(page, ours);
    const theirKey = { 'x-api-key': theirs.apiKey };
    for (const name of ['Marketing pages', RUN_REPORT_NAME]) {
      const path = `${encodeURIComponent(name)}/html`;
      expect((await request.get(`/report/fetch/${path}`, { headers: theirKey })).status()).toBe(404);
      expect((await request.post(`/report/link/${path}`, { headers: theirKey })).status()).toBe(404);
    }
    // Our link works once minted, for this report only; a forged or altered one is refused.
    const link = await request.post(`/report/link/${encodeURIComponent('Marketing pages')}/html`, { headers: { 'x-api-key': ours.apiKey } });
    const { url } = (await link.json()) as { url: string };
    expect((await request.get(url)).status()).toBe(200);
    expect((await request.get(url.replace('/html?', '/json?'))).status()).toBe(401);
    expect((await request.get(`${url}x`)).status()).toBe(401);
  });
});
