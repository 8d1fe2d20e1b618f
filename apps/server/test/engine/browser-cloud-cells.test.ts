import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudCellSessions } from '../../src/db/schema/index.ts';
import { buildTestApp, createTestClient, type TestClient } from '../helpers/app.ts';
import { CHROMEDRIVER, type LocalBrowsers, startLocalBrowsers } from './fake-cloud-browsers.ts';
import { startCloud } from './fake-clouds.ts';
import { startFakeDeviceFarm } from './fake-device-farm.ts';
import { importSuite, key, manifest, OPERATOR_TOKEN, operator, runAndWait } from './helpers.ts';

/**
 * A shop whose Buy button is taken away on an iPhone, by its user agent: the page checks fail on an iPhone only, and
 * pass on a desktop Chromium, a Windows Edge and an Android Chrome.
 */
async function startShop() {
  const requests: string[] = [];
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Acme shop</title></head>
<body><main><h1>Acme shop</h1><p>Socks, 9 euros.</p><button id="buy" type="button">Buy</button></main>
<script>if (/iPhone/.test(navigator.userAgent)) document.getElementById('buy').remove();</script></body></html>`;
  const server = http.createServer((req, res) => {
    requests.push(`${req.url} ${req.headers['user-agent'] ?? ''}`);
    if (req.url !== '/') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found');
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type Case = { name: string; status: string; cell?: string; error?: string; screenshot?: string };
type CloudCell = { cell: string; label: string; provider: string; sessionId: string | null; minutes: number | null; billedMinutes?: number | null; ran: string | null; cannot: string; note?: string; providerLinks?: { label: string; url: string }[]; providerNote?: string };
type TestResult = { testName: string; status: string; error: string | null };

/** The fakes' browsers: Debian's chromedriver (chromium-driver) and WebKitWebDriver (webkit2gtk-driver); without them those tests are skipped. */
const noDrivers = ![CHROMEDRIVER, '/usr/bin/WebKitWebDriver'].every((file) => existsSync(file));

const iphone = { cloud: 'iPhone 15', os: 'iOS 18', browser: 'safari' };
const edge = { cloud: 'Windows 11', browser: 'edge' };
/** A page's load may take long on a busy machine: the local cell is not the one under test here. */
const checks = { settleMs: 200 };
const testTimeoutMs = 60_000;
/** A run's wait: about 20 s on an idle machine (a runner, WebKit's start); minutes on a busy shared one. */
const RUN_WAIT_MS = 300_000;

/**
 * Browser tests with cloud cells (issue 44, decision 0100) through the real server and runner: the client's device
 * cloud (local fakes of BrowserStack, Sauce Labs and AWS Device Farm's desktop browser testing, each hub handing its
 * sessions to a local WebDriver: chromedriver's Chromium for Chrome and Edge, WebKitWebDriver's MiniBrowser for
 * Safari) runs the page checks beside a local Chromium cell. The fakes and the shop are on 127.0.0.1: this server
 * allows private targets (ENGINE_ALLOW_PRIVATE_TARGETS) and the hubs are on loopback too, the tests' one allowance
 * (a private site with a public provider's hub is refused: cloud-cells.test.ts).
 */
describe('browser tests with cloud cells', () => {
  let app: FastifyInstance;
  let shop: Awaited<ReturnType<typeof startShop>>;
  let browsers: LocalBrowsers;
  const closers: (() => Promise<void>)[] = [];

  const setProvider = (clientId: string, body: Record<string, unknown>) => app.inject({ method: 'PUT', url: `/operator/clients/${clientId}/mobile-devices`, headers: operator, payload: body });
  const clientWith = async (tests: Record<string, unknown>[]) => {
    const client = await createTestClient(app, { website: shop.url });
    const imported = await importSuite(app, client.clientId, { 'suite.json': manifest({ Shop: tests.map((t) => ({ kind: 'browser', ...t })) as never }) });
    expect(imported.statusCode, imported.body).toBe(201);
    return client;
  };
  const run = async (client: TestClient, testName: string) => {
    const detail = (await runAndWait(app, client, testName, RUN_WAIT_MS)) as { runId: string; tests: TestResult[] };
    return { ...detail.tests.find((t) => t.testName === testName)!, runId: detail.runId };
  };
  const reportOf = async (client: TestClient, testName: string) => {
    const json = await app.inject({ url: `/report/fetch/${encodeURIComponent(testName)}/json`, headers: key(client) });
    expect(json.statusCode, json.body).toBe(200);
    const html = await app.inject({ url: `/report/fetch/${encodeURIComponent(testName)}/html`, headers: key(client) });
    expect(html.statusCode).toBe(200);
    const summary = json.json().summary as { cases: Case[]; cloudCells?: CloudCell[] };
    return { summary, json: json.body, html: html.body };
  };
  const attr = (url: string) => url.replace(/&/g, '&amp;');

  beforeAll(async () => {
    shop = await startShop();
    browsers = await startLocalBrowsers();
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true } });
    await app.engine.startWorkers(1);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    for (const close of closers) await close();
    await browsers?.close();
    await shop?.close();
  });

  it.skipIf(noDrivers)('runs the page checks on BrowserStack’s iPhone and Windows beside a local cell, and fails the iPhone only, with its links and minutes', async () => {
    const account = { username: 'acme_qa', accessKey: 'bs-automate-key-0123456789-7f3e' };
    const cloud = await startCloud('browserstack', account, { browsers });
    closers.push(cloud.close);
    const client = await clientWith([
      { name: 'Shop everywhere', options: { devices: ['desktop', iphone, edge], pages: [{ path: '/', expect: ['#buy'] }], pageChecks: checks, testTimeoutMs } },
      { name: 'Shop on a Pixel', options: { devices: [{ cloud: 'Pixel 8', browser: 'chrome' }, { cloud: 'iPhone 15', os: 'iOS 16', browser: 'safari' }], pages: [{ path: '/' }] } },
    ]);
    const set = await setProvider(client.clientId, { kind: 'browserstack', url: cloud.url, apiUrl: cloud.apiUrl, ...account });
    expect(set.statusCode, set.body).toBe(200);
    // Once the client has a device cloud, an operator's import refuses a device it does not offer, pointing at it.
    const pixel9 = { name: 'Shop on a Pixel 9', kind: 'browser', options: { devices: ['desktop', { cloud: 'Pixel 9', browser: 'chrome' }], pages: [{ path: '/' }] } };
    const refused = await importSuite(app, client.clientId, { 'suite.json': manifest({ Shop: [pixel9] as never }) });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().issues).toEqual([{ file: 'suite.json', field: 'groups.0.tests.0.options.devices.1', reason: expect.stringMatching(/^BrowserStack does not offer a device named "Pixel 9"; close names it offers: /) }]);

    const result = await run(client, 'Shop everywhere');
    expect(result).toMatchObject({ status: 'failed', error: null });
    const { summary, json, html } = await reportOf(client, 'Shop everywhere');
    const byCell = Object.fromEntries(summary.cases.map((c) => [c.cell, c]));
    expect(Object.keys(byCell)).toEqual(['chromium/desktop', 'cloud/safari@iPhone 15 (iOS 18)', 'cloud/edge@Windows 11']);
    // Exactly the iPhone's cell fails, and for what the iPhone's user agent made the site do.
    expect(byCell['chromium/desktop'], byCell['chromium/desktop']?.error).toMatchObject({ status: 'passed' });
    expect(byCell['cloud/edge@Windows 11'], byCell['cloud/edge@Windows 11']?.error).toMatchObject({ status: 'passed' });
    expect(byCell['cloud/safari@iPhone 15 (iOS 18)']).toMatchObject({ status: 'failed', error: 'key element missing: #buy' });
    // A screenshot per page in every cell, the cloud's included.
    for (const c of summary.cases) expect(c.screenshot, c.cell).toMatch(/\.png$/);
    // The site saw the devices' own browsers: an iPhone's Safari and Edge on Windows, not ours.
    expect(shop.requests.some((r) => /iPhone OS 18_0.*Safari/.test(r))).toBe(true);
    expect(shop.requests.some((r) => /Windows NT 10\.0.*Edg\//.test(r))).toBe(true);

    // What the provider was asked: its own capabilities, with the user name and key as basic auth.
    expect(cloud.browserSessions.map((s) => s.capabilities)).toEqual([
      { browserName: 'safari', 'bstack:options': expect.objectContaining({ deviceName: 'iPhone 15', osVersion: '18', realMobile: 'true', sessionName: 'Fullstop QA: Shop everywhere · Safari on iPhone 15 (iOS 18)' }) },
      { browserName: 'Edge', browserVersion: 'latest', 'bstack:options': expect.objectContaining({ os: 'Windows', osVersion: '11' }) },
    ]);
    expect(cloud.listsAsked).toEqual(['/automate/browsers.json']);
    // Every session ended, and the time the cells held them is the run's.
    expect(browsers.open()).toEqual([]);
    const rows = await app.db.select().from(cloudCellSessions).where(eq(cloudCellSessions.runId, result.runId));
    expect(rows.map((r) => [r.cell, r.provider, r.endedAt !== null])).toEqual([
      ['Safari on iPhone 15 (iOS 18)', 'browserstack', true],
      ['Edge on Windows 11', 'browserstack', true],
    ]);

    // The report names the cloud cells by device and browser, with what ran, the minutes and the provider's pages.
    const cells = summary.cloudCells!;
    expect(cells.map((c) => [c.cell, c.label, c.provider, c.ran])).toEqual([
      ['cloud/safari@iPhone 15 (iOS 18)', 'Safari on iPhone 15 (iOS 18)', 'BrowserStack', 'page checks only (page loads, console errors after load, broken links, key elements, a screenshot, axe)'],
      ['cloud/edge@Windows 11', 'Edge on Windows 11', 'BrowserStack', 'page checks only (page loads, console errors after load, broken links, key elements, a screenshot, axe)'],
    ]);
    for (const c of cells) {
      expect(c.minutes).toBeGreaterThan(0);
      expect(c.minutes).toBeLessThan(3);
      expect(cloud.browserSessions.map((s) => s.id)).toContain(c.sessionId);
      const id = c.sessionId!;
      expect(c.providerLinks).toEqual([
        { label: 'Session on BrowserStack', url: `https://automate.browserstack.com/dashboard/v2/public-build/y?redirect=true&session=${id}` },
        { label: 'Video', url: `https://automate.browserstack.com/sessions/${id}/video?token=def&source=rest_api` },
        { label: 'WebDriver log', url: expect.stringMatching(new RegExp(`/sessions/${id}/seleniumlogs$`)) },
        { label: 'Console log', url: expect.stringMatching(new RegExp(`/sessions/${id}/consolelogs$`)) },
        { label: 'Network log (HAR)', url: expect.stringMatching(new RegExp(`/sessions/${id}/networklogs$`)) },
      ]);
      for (const link of c.providerLinks!) expect(html).toContain(`<a href="${attr(link.url)}" rel="noreferrer noopener" target="_blank">${link.label}</a>`);
      expect(html).toContain(`${c.minutes} device minute`);
      // BrowserStack's own count of the session, beside ours (decision 0106).
      expect(c.billedMinutes).toBeGreaterThan(0);
      expect(html).toContain(`BrowserStack billed ${c.billedMinutes} minute`);
    }
    expect(html).toContain('Cloud cells (2)');
    expect(html).toContain('<th>Cloud · Safari on iPhone 15 (iOS 18) · network: the provider’s</th>');
    expect(html).toContain('fails on Safari on iPhone 15 (iOS 18) only');
    expect(html).toContain('Cloud: page checks only (page loads, console errors after load, broken links, key elements, a screenshot, axe): Playwright spec files run on BrowserStack’s desktop browsers only');
    for (const text of [json, html]) expect(text).not.toContain(account.accessKey);

    // A device the provider does not offer: said before any session, with the names it offers that are close.
    const notOffered = await run(client, 'Shop on a Pixel');
    expect(notOffered).toMatchObject({
      status: 'error',
      error:
        'the test “Shop on a Pixel” names cloud devices its device cloud does not offer: BrowserStack does not offer a device named "Pixel 8"; close names it offers: Google Pixel 8, iPhone 15, iPad Air 5, iPhone 15 Pro, Samsung Galaxy S24; BrowserStack offers iPhone 15 with iOS 18, not iOS 16',
    });
    expect(cloud.browserSessions).toHaveLength(2);
    // The list was asked once: kept 10 minutes.
    expect(cloud.listsAsked).toEqual(['/automate/browsers.json']);

    // The operator's cap of cloud minutes per run: past it, no cloud cell starts, and the report says so.
    expect((await setProvider(client.clientId, { kind: 'browserstack', url: cloud.url, apiUrl: cloud.apiUrl, username: account.username, cloudMinutesPerRun: 0 })).statusCode).toBe(200);
    const capped = await run(client, 'Shop everywhere');
    expect(capped).toMatchObject({ status: 'passed', error: null });
    const after = await reportOf(client, 'Shop everywhere');
    const skipped = after.summary.cases.filter((c) => c.cell?.startsWith('cloud/'));
    expect(skipped.map((c) => [c.status, c.error])).toEqual([
      ['skipped', 'not started: the client’s cap of 0 cloud minutes per run is used up (0 used by this run’s cloud cells): an operator sets it on the client’s page'],
      ['skipped', 'not started: the client’s cap of 0 cloud minutes per run is used up (0 used by this run’s cloud cells): an operator sets it on the client’s page'],
    ]);
    expect(after.summary.cloudCells!.map((c) => [c.ran, c.minutes])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(after.html).toContain('did not run: not started: the client’s cap of 0 cloud minutes per run is used up');
    expect(cloud.browserSessions).toHaveLength(2);
  }, 900_000);

  it.skipIf(noDrivers)('runs a cloud cell on Sauce Labs’ real Android device, and refuses a wrong key with Sauce Labs’ own status', async () => {
    const account = { username: 'acme-sauce', accessKey: 'sauce-browser-key-4c2d' };
    const cloud = await startCloud('saucelabs', account, { browsers });
    closers.push(cloud.close);
    const client = await clientWith([{ name: 'Shop on Android', options: { devices: [{ cloud: 'Google Pixel 8', os: 'Android 14', browser: 'chrome' }], pages: [{ path: '/', expect: ['#buy'] }], pageChecks: checks } }]);
    expect((await setProvider(client.clientId, { kind: 'saucelabs', url: cloud.url, apiUrl: cloud.apiUrl, ...account })).statusCode).toBe(200);

    expect(await run(client, 'Shop on Android')).toMatchObject({ status: 'passed', error: null });
    const { summary } = await reportOf(client, 'Shop on Android');
    expect(summary.cases.map((c) => [c.cell, c.status])).toEqual([['cloud/chrome@Google Pixel 8 (Android 14)', 'passed']]);
    expect(cloud.browserSessions.map((s) => s.capabilities)).toEqual([
      expect.objectContaining({ platformName: 'Android', browserName: 'Chrome', 'appium:deviceName': 'Google Pixel 8', 'appium:platformVersion': '14', 'appium:automationName': 'UiAutomator2' }),
    ]);
    expect(shop.requests.some((r) => /Android 14; Pixel 8\).*Mobile Safari/.test(r))).toBe(true);
    const id = summary.cloudCells![0]!.sessionId!;
    expect(summary.cloudCells![0]!.providerLinks).toEqual([
      { label: 'Session on Sauce Labs', url: `https://app.saucelabs.com/tests/${id}` },
      { label: 'Video', url: `https://assets.saucelabs.com/jobs/${id}/video.mp4` },
      { label: 'WebDriver log', url: `https://assets.saucelabs.com/jobs/${id}/selenium-server.log` },
    ]);
    expect(cloud.listsAsked).toEqual(['/rest/v1/info/platforms/webdriver', '/v1/rdc/devices']);

    // A wrong key: Sauce Labs' 401 when its list is asked, our words, no session and no retry.
    expect((await setProvider(client.clientId, { kind: 'saucelabs', url: cloud.url, apiUrl: cloud.apiUrl, username: account.username, accessKey: 'not-the-key' })).statusCode).toBe(200);
    expect(await run(client, 'Shop on Android')).toMatchObject({
      status: 'error',
      error: 'Sauce Labs refused the user name and access key (401) when its desktop browsers were listed: an operator must check the client’s device provider',
    });
    expect(cloud.browserSessions).toHaveLength(1);
    expect(cloud.refused).toEqual(['/rest/v1/info/platforms/webdriver']);
  }, 600_000);

  it.skipIf(noDrivers)('runs a cloud cell in AWS Device Farm’s desktop browser testing, through a signed URL made for the cell', async () => {
    const account = {
      accessKeyId: 'AKIAFULLSTOPTEST0002',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYtestgrid7',
      projectArn: 'arn:aws:devicefarm:us-west-2:123456789012:project:5e01a8c7-c861-4c0a-b1d5-12345EXAMPLE',
      testGridProjectArn: 'arn:aws:devicefarm:us-west-2:123456789012:testgrid-project:8d3c1c55-0f4a-4c3b-9c2e-12345EXAMPLE',
    };
    const farm = await startFakeDeviceFarm(null, account, browsers);
    closers.push(farm.close);
    const client = await clientWith([
      { name: 'Shop on Windows', options: { devices: [{ cloud: 'Windows', browser: 'edge' }], pages: [{ path: '/', expect: ['#buy'] }], pageChecks: checks } },
      { name: 'Shop on Windows 11', options: { devices: [{ cloud: 'Windows 11', browser: 'chrome' }], pages: [{ path: '/' }] } },
    ]);
    const base = { kind: 'devicefarm', apiUrl: farm.apiUrl, username: account.accessKeyId, accessKey: account.secretAccessKey, projectArn: account.projectArn };
    // Without a desktop browser testing project, Device Farm runs no cloud cell, and says where to set one.
    expect((await setProvider(client.clientId, base)).statusCode).toBe(200);
    expect(await run(client, 'Shop on Windows')).toMatchObject({
      status: 'error',
      error: 'the cloud devices (Edge on Windows) run on AWS Device Farm in a desktop browser testing project, and none is set: an operator sets its testgrid-project ARN on the client’s page (Mobile devices)',
    });
    const set = await setProvider(client.clientId, { ...base, testGridProjectArn: account.testGridProjectArn });
    expect(set.json().provider).toMatchObject({ testGridProjectArn: account.testGridProjectArn, cloudMinutesPerRun: null });

    expect(await run(client, 'Shop on Windows')).toMatchObject({ status: 'passed', error: null });
    expect(farm.of('CreateTestGridUrl').map((c) => c.body)).toEqual([{ projectArn: account.testGridProjectArn, expiresInSeconds: 300 }]);
    const { summary, json } = await reportOf(client, 'Shop on Windows');
    const cell = summary.cloudCells![0]!;
    expect(cell).toMatchObject({ label: 'Edge on Windows', provider: 'AWS Device Farm' });
    expect(farm.testGridSessions.get(cell.sessionId!)?.ended).toEqual(expect.any(Number));
    expect(cell.providerLinks!.map((l) => l.label)).toEqual(['Video', 'WebDriver log']);
    // Device Farm's billingMinutes of the session (GetTestGridSession), beside our count.
    expect(cell.billedMinutes).toBeGreaterThan(0);
    expect(json).not.toContain(account.secretAccessKey);
    expect(farm.seen.join('\n')).not.toContain(account.secretAccessKey);
    // Device Farm does not let one choose the Windows version: its one desktop is "Windows".
    expect(await run(client, 'Shop on Windows 11')).toMatchObject({
      status: 'error',
      error: 'the test “Shop on Windows 11” names cloud devices its device cloud does not offer: AWS Device Farm does not offer a device named "Windows 11"; close names it offers: Windows',
    });
  }, 900_000);

  it('refuses cloud devices for a client without a device cloud, and a bad cloud device at its field on import', async () => {
    const client = await clientWith([{ name: 'Shop on an iPhone', options: { devices: [iphone], pages: [{ path: '/' }] } }]);
    expect(await run(client, 'Shop on an iPhone')).toMatchObject({
      status: 'error',
      error: 'the test “Shop on an iPhone” has cloud devices (Safari on iPhone 15 (iOS 18)), which need a device cloud: an operator sets one on the client’s page (Mobile devices: BrowserStack, Sauce Labs or AWS Device Farm)',
    });
    // An Appium server is no device cloud.
    expect((await setProvider(client.clientId, { kind: 'appium', url: 'http://127.0.0.1:4723/' })).statusCode).toBe(200);
    expect((await run(client, 'Shop on an iPhone')).error).toMatch(/which need a device cloud \(BrowserStack, Sauce Labs or AWS Device Farm\); this client’s device provider is an Appium server/);

    const bad = await importSuite(app, client.clientId, {
      'suite.json': manifest({ Shop: [{ name: 'Bad', kind: 'browser', options: { devices: ['desktop', { cloud: 'iPhone 15', browser: 'netscape' }], pages: [{ path: '/' }] } }] }),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('groups.0.tests.0.options.devices.1.browser');
    expect(bad.body).toContain('unknown browser \\"netscape\\": a cloud device\'s browser is chrome, safari, edge, firefox');
  }, 600_000);
});
