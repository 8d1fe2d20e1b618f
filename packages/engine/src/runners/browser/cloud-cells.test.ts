import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cellLabel, engineChecks, failingWhere } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { cellWeightOf } from '../../lib/cell-weight.ts';
import { browserOptionsProblem as problem, makeContext, parseBrowserOptions as parse, testOf } from '../../../test/helpers.ts';
import { browserStackPlaywrightCaps, browserStackPlaywrightUrl, cloudCapabilities, cloudCellsOf, type CloudHub, cloudSpecsRefusal, playwrightBrowserOf, privateTargetRefusal } from './cloud-cells.ts';
import { CloudCells, cloudCellCannot } from './cloud-session.ts';
import { browserRunner } from './index.ts';
import { cloudCellsSection, matrixSection } from './matrix-report.ts';

const iphone = { cloud: 'iPhone 15', os: 'iOS 18', browser: 'safari' };
const edge = { cloud: 'Windows 11', browser: 'edge' };
const pages = [{ path: '/' }];

describe('cloud devices in a browser test (decision 0100)', () => {
  it('takes cloud devices beside the local ones, a cell each, named by device and browser', () => {
    const options = parse({ devices: ['desktop', iphone, edge], pages });
    expect(options.devices).toEqual(['desktop', iphone, edge]);
    const cells = cloudCellsOf(options.devices);
    expect(cells.map((c) => [c.index, c.name, c.label, c.desktop])).toEqual([
      [0, 'cloud/safari@iPhone 15 (iOS 18)', 'Safari on iPhone 15 (iOS 18)', false],
      [1, 'cloud/edge@Windows 11', 'Edge on Windows 11', true],
    ]);
    expect(cellLabel('cloud/safari@iPhone 15 (iOS 18)')).toBe('Cloud · Safari on iPhone 15 (iOS 18)');
  });

  it('refuses each mistake at its own field, in words', () => {
    expect(problem({ devices: [{ cloud: 'iPhone 15', browser: 'opera' }], pages })).toBe('options.devices.0.browser: unknown browser "opera": a cloud device\'s browser is chrome, safari, edge, firefox');
    expect(problem({ devices: ['desktop', { cloud: 'iPhone/15', browser: 'safari' }], pages })).toBe('options.devices.1.cloud: cloud must be 1 to 60 letters, digits, spaces and . _ + - (no / @ or brackets)');
    expect(problem({ devices: [{ cloud: 'Pixel 8', browser: 'chrome', os: '' }], pages })).toMatch(/^options\.devices\.0\.os: os must be 1 to 60 letters/);
    expect(problem({ devices: [{ cloud: 'Pixel 8', browser: 'chrome', screen: 'big' }], pages })).toMatch(/^options\.devices\.0: /);
    expect(problem({ devices: ['watch'], pages })).toBe(
      "options.devices.0: unknown device \"watch\": the devices are desktop, phone, tablet, or a cloud device such as { cloud: 'iPhone 15', os: 'iOS 18', browser: 'safari' }",
    );
    expect(problem({ devices: [iphone, { ...iphone, cloud: 'iphone 15' }], pages })).toBe('options.devices: lists the same device twice');
    expect(problem({ devices: [iphone] })).toBe(
      "options.pages: cloud devices without a local device run page checks only (page loads, console errors after load, broken links, key elements, a screenshot, axe). List the pages they check, e.g. pages: [{ path: '/' }], or add desktop to devices to run the spec files there and on the cloud devices whose provider runs Playwright (BrowserStack’s desktops)",
    );
    // Beside a local device, the spec files run (on BrowserStack's desktops too: decision 0106): no pages needed.
    expect(problem({ devices: ['desktop', edge] })).toBeNull();
    expect(problem({ devices: ['desktop', iphone], networks: ['none', 'slow-3g'], pages })).toBe(
      'options.networks: cloud devices run on the provider’s network, which our network shaping cannot reach: a test with cloud devices keeps networks to none (the default); move the networks slow-3g to a test of its own',
    );
    expect(problem({ devices: [iphone], pages, specs: 'home.spec.ts' })).toBe('options.specs: no cell of this test runs spec files: spec files run on a local device, and on cloud devices beside one; add desktop, phone or tablet to devices, or drop specs');
    expect(problem({ devices: ['desktop', edge], pages, viewport: { width: 800, height: 600 } })).toBe('options.viewport: cannot run with devices Windows 11: each device has its own viewport; drop viewport, or keep devices to desktop');
  });

  it('bounds the cloud cells, and counts them in the 12 cells a test may have', () => {
    const seven = ['1', '2', '3', '4', '5', '6', '7'].map((n) => ({ cloud: `Pixel ${n}`, browser: 'chrome' }));
    expect(problem({ devices: seven, pages })).toBe('options.devices: 7 cloud devices: a test may have at most 6 (each is a session billed on the client’s device cloud); split them in two tests');
    expect(problem({ engines: ['chromium', 'firefox', 'webkit'], devices: ['desktop', 'phone', 'tablet', ...seven.slice(0, 4)], pages })).toBe(
      'options.devices: 3 engines × 3 devices × 1 networks make 9 cells and 4 cloud devices 4 more: 13 cells; a test may have at most 12: split it in two tests',
    );
    expect(problem({ engines: ['chromium', 'firefox', 'webkit'], devices: ['desktop', 'phone', 'tablet', ...seven.slice(0, 3)], pages })).toBeNull();
    // A cloud cell starts no local browser: it adds no weight of one.
    expect(cellWeightOf({ devices: [iphone, edge], specs: 'x' }, 'browser')).toBe(0);
    expect(cellWeightOf({ devices: ['desktop', iphone], specs: 'x' }, 'browser')).toBe(0);
  });

  it('says a cloud cell’s network is the provider’s, what it ran, and where a case fails', () => {
    const cells = ['chromium/desktop', 'cloud/safari@iPhone 15 (iOS 18)', 'cloud/edge@Windows 11'];
    expect(failingWhere({ [cells[0]!]: 'passed', [cells[1]!]: 'failed', [cells[2]!]: 'passed' })).toBe('fails on Safari on iPhone 15 (iOS 18) only');
    expect(failingWhere({ [cells[0]!]: 'passed', [cells[1]!]: 'failed', [cells[2]!]: 'failed' })).toBe('fails on the cloud cells only');
    // A spec file the phone does not run, failing on the one cloud desktop that does: that desktop is named.
    expect(failingWhere({ [cells[0]!]: 'passed', [cells[1]!]: 'skipped', [cells[2]!]: 'failed' })).toBe('fails on Edge on Windows 11 only');
    const cases = cells.map((cell) => ({ name: `page check › / [${cell}]`, cell, status: 'passed' as const, durationMs: 1, steps: [{ title: 'load /', durationMs: 1 }] }));
    expect(engineChecks(cases)).toEqual(['Chromium: page checks only (page loads, a screenshot)', 'Cloud: page checks only (page loads, a screenshot): Playwright spec files run on BrowserStack’s desktop browsers only']);
    const html = matrixSection(cases);
    expect(html).toContain('<th>Cloud · Safari on iPhone 15 (iOS 18) · network: the provider’s</th>');
    expect(html).toContain('<th>Chromium · desktop</th>');
  });
});

describe('what each provider is asked for', () => {
  const hub = (provider: CloudHub['provider'], capabilities?: Record<string, unknown>): CloudHub => ({ url: 'https://hub.example/wd/hub', provider, ...(capabilities ? { capabilities } : {}) });
  const [phone, desktop] = cloudCellsOf([iphone as never, edge as never]);
  const p = { sessionName: 'Fullstop QA: shop · cell', build: 'Fullstop QA', idleSeconds: 90 };

  it('BrowserStack: bstack:options, a real device or a desktop, the operator’s project kept', () => {
    expect(cloudCapabilities(hub('browserstack', { 'bstack:options': { projectName: 'Acme' }, 'appium:app': 'bs://x' }), phone!, p)).toEqual({
      browserName: 'safari',
      'bstack:options': { projectName: 'Acme', sessionName: p.sessionName, buildName: 'Fullstop QA', idleTimeout: 90, local: false, deviceName: 'iPhone 15', osVersion: '18', realMobile: 'true' },
    });
    expect(cloudCapabilities(hub('browserstack'), desktop!, p)).toEqual({
      browserName: 'Edge',
      browserVersion: 'latest',
      'bstack:options': { sessionName: p.sessionName, buildName: 'Fullstop QA', idleTimeout: 90, local: false, os: 'Windows', osVersion: '11' },
    });
  });

  it('Sauce Labs: a real device through Appium’s names, a desktop by its platform; Device Farm: its desktop browsers', () => {
    expect(cloudCapabilities(hub('saucelabs'), phone!, p)).toEqual({
      platformName: 'iOS',
      browserName: 'Safari',
      'appium:deviceName': 'iPhone 15',
      'appium:platformVersion': '18',
      'appium:automationName': 'XCUITest',
      'sauce:options': { name: p.sessionName, build: 'Fullstop QA', idleTimeout: 90 },
    });
    const [sonoma] = cloudCellsOf([{ cloud: 'macOS Sonoma', browser: 'safari' }]);
    expect(cloudCapabilities(hub('saucelabs'), sonoma!, p)).toMatchObject({ browserName: 'safari', browserVersion: 'latest', platformName: 'macOS 14' });
    expect(cloudCapabilities(hub('devicefarm'), desktop!, p)).toEqual({ browserName: 'MicrosoftEdge', browserVersion: 'latest', platform: 'windows' });
  });
});

describe('spec files on cloud cells (decision 0106)', () => {
  const [phone, desktop, sonoma] = cloudCellsOf([iphone as never, edge as never, { cloud: 'macOS Sonoma', browser: 'safari' } as never]);

  it('run on BrowserStack’s desktops only; elsewhere the cell says why, in words', () => {
    expect(cloudSpecsRefusal('browserstack', desktop!)).toBeNull();
    expect(cloudSpecsRefusal('browserstack', sonoma!)).toBeNull();
    expect(cloudSpecsRefusal('browserstack', phone!)).toBe('BrowserStack gives Playwright no real phone or tablet: page checks only');
    expect(cloudSpecsRefusal('saucelabs', desktop!)).toBe('Sauce Labs runs Playwright only from a project uploaded with its saucectl tool, not over a connection from our runner');
    expect(cloudSpecsRefusal('devicefarm', desktop!)).toBe('AWS Device Farm’s desktop browsers take Selenium (WebDriver) only, not Playwright');
    expect(cloudCellCannot(cloudSpecsRefusal('saucelabs', desktop!))).toMatch(/^Playwright spec files \(Sauce Labs runs Playwright only from a project uploaded with its saucectl tool, not over a connection from our runner\), our policy proxy/);
    expect(cloudCellCannot(null)).toMatch(/^our policy proxy and network shaping/);
  });

  it('asks BrowserStack’s Playwright endpoint in its capabilities, without the user name and key (the relay adds them)', () => {
    const p = { name: 'Fullstop QA: shop', build: 'Fullstop QA 0a1b', playwrightVersion: '1.56.1' };
    expect(browserStackPlaywrightCaps(desktop!, p)).toEqual({ browser: 'edge', os: 'Windows', os_version: '11', name: p.name, build: p.build, 'client.playwrightVersion': '1.56.1' });
    expect(browserStackPlaywrightCaps(sonoma!, p)).toMatchObject({ browser: 'playwright-webkit', os: 'OS X', os_version: 'Sonoma' });
    expect(playwrightBrowserOf(sonoma!)).toBe('webkit');
    expect(browserStackPlaywrightUrl('https://hub-cloud.browserstack.com/wd/hub')).toBe('wss://cdp.browserstack.com/playwright');
    expect(browserStackPlaywrightUrl('http://127.0.0.1:4444/wd/hub')).toBe('ws://127.0.0.1:4444/playwright');
  });
});

describe('the providers’ billed minutes in the report (decision 0106)', () => {
  const cell = { cell: 'cloud/edge@Windows 11', label: 'Edge on Windows 11', provider: 'BrowserStack', device: 'Windows 11', os: null, browser: 'edge', browserVersion: null, platformName: null, sessionId: 'abc', minutes: 0.4, ran: 'spec files', cannot: cloudCellCannot(null) };
  it('shows the provider’s count beside ours, "not reported" when it did not answer, nothing before the server asked', () => {
    const answered = cloudCellsSection([{ ...cell, billedMinutes: 1 }, { ...cell, cell: 'cloud/chrome@Windows 11', billedMinutes: 0.3 }]);
    expect(answered).toContain('0.4 device minutes<div class="muted small">BrowserStack billed 1 minute</div>');
    expect(answered).toContain('0.8 device minutes on BrowserStack in all by our count; BrowserStack billed 1.3 minutes.');
    const silent = cloudCellsSection([{ ...cell, billedMinutes: 1 }, { ...cell, billedMinutes: null }]);
    expect(silent).toContain('BrowserStack: not reported');
    expect(silent).toContain('0.8 device minutes on BrowserStack in all by our count. The client');
    expect(cloudCellsSection([cell])).not.toMatch(/BrowserStack billed|not reported/);
  });

  it('says a cell’s spec files did not run past the client’s cap, once when its page checks did not either', () => {
    const capped = 'not started: the client’s cap of 1 cloud minute per run is used up (1.2 used by this run’s cloud cells): an operator sets it on the client’s page';
    const specFiles = { build: 'Fullstop QA 0123456789ab', connections: 0, ms: 0, notStarted: capped };
    const pagesRan = cloudCellsSection([{ ...cell, ran: 'page checks only (page loads)', specFiles }]);
    expect(pagesRan).toContain('page checks only (page loads)<div class="muted small">spec files did not run: not started: the client’s cap of 1 cloud minute per run is used up');
    const noneRan = cloudCellsSection([{ ...cell, ran: null, minutes: null, note: capped, specFiles }]);
    expect(noneRan).toContain('did not run: not started: the client’s cap of 1 cloud minute');
    expect(noneRan).not.toContain('spec files did not run');
  });
});

describe('a private site and cloud cells', () => {
  const lookup = async (host: string) => [{ address: host === 'hub.cloud.test' ? '203.0.113.7' : host === 'shop.example.test' ? '198.51.100.4' : '10.0.0.9', family: 4 }];
  it('is refused, decided by the site’s address; the tests’ allowance is a target that allows private addresses and a hub on one', async () => {
    const site = (baseUrl: string, allowPrivateAddresses: boolean) => ({ baseUrl, allowedOrigins: [], allowPrivateAddresses });
    // A public site: nothing to refuse.
    expect(await privateTargetRefusal(site('https://shop.example.test/', false), 'https://hub.cloud.test/wd/hub', { lookup })).toBeNull();
    // A private one: refused with a real (public) provider's hub, even when the target allows private addresses.
    for (const allow of [false, true]) {
      expect(await privateTargetRefusal(site('http://127.0.0.1:8080/', allow), 'https://hub.cloud.test/wd/hub', { lookup })).toBe(
        'the site 127.0.0.1:8080 is on the private address 127.0.0.1: a device cloud’s browser reaches sites from the provider’s network, not ours, so cloud cells test public sites only. Run the cloud devices against a public address of the site, or keep them out of this test',
      );
      expect(await privateTargetRefusal(site('http://intranet.test/', allow), 'https://hub.cloud.test/wd/hub', { lookup })).toMatch(/^the site intranet\.test is on the private address 10\.0\.0\.9:/);
    }
    // The fakes: a hub on loopback, and a target that allows private addresses.
    expect(await privateTargetRefusal(site('http://127.0.0.1:8080/', true), 'http://127.0.0.1:4444/wd/hub', { lookup })).toBeNull();
    expect(await privateTargetRefusal(site('http://127.0.0.1:8080/', false), 'http://127.0.0.1:4444/wd/hub', { lookup })).toMatch(/^the site 127\.0\.0\.1:8080 is on the private address/);
  });
});

describe('the runner and a cloud cell it cannot run', () => {
  const test = testOf('browser', { devices: ['desktop', iphone], pages });
  const hub = (url: string) => ({ url, provider: 'browserstack', username: 'acme', accessKey: 'bs-key-0123456789' }) as never;

  it('refuses a test with cloud devices and no device cloud, and a private site, before any browser starts', async () => {
    const ctx = await makeContext();
    const none = await browserRunner.run(test, { baseUrl: 'https://shop.example.test/', allowedOrigins: [], allowPrivateAddresses: false }, ctx);
    expect(none).toMatchObject({
      status: 'error',
      errorCode: 'validation_error',
      error: 'options.devices: the cloud devices (Safari on iPhone 15 (iOS 18)) need a device cloud: an operator sets one on the client’s page (Mobile devices: BrowserStack, Sauce Labs or AWS Device Farm)',
    });
    // A site on loopback with a public provider's hub: refused, even when the target allows private addresses.
    const network = { lookup: async () => [{ address: '203.0.113.7', family: 4 }] };
    for (const allowPrivateAddresses of [true, false]) {
      const refused = await browserRunner.run(test, { baseUrl: 'http://127.0.0.1:9/', allowedOrigins: [], allowPrivateAddresses, appium: hub('https://hub.cloud.test/wd/hub') }, { ...ctx, network });
      expect(refused).toMatchObject({ status: 'error', errorCode: 'validation_error' });
      expect(refused.error).toBe(
        'options.devices: the cloud devices (Safari on iPhone 15 (iOS 18)) cannot test this site: the site 127.0.0.1:9 is on the private address 127.0.0.1: a device cloud’s browser reaches sites from the provider’s network, not ours, so cloud cells test public sites only. Run the cloud devices against a public address of the site, or keep them out of this test',
      );
    }
    expect(ctx.logs.some((l) => l.startsWith('page check browsers started'))).toBe(false);
  });

  it('says why a cloud session did not start, without the access key the provider repeats', async () => {
    // A hub that refuses the key the way Sauce Labs does: it says which user name and key it was given.
    const asked: string[] = [];
    const server = http.createServer((req, res) => {
      asked.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ value: { error: 'invalid argument', message: "Misconfigured -- Sauce Labs Authentication Error. You used username 'acme' and access key 'bs-key-0123456789' to authenticate" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const ctx = await makeContext();
      const target = { baseUrl: 'http://127.0.0.1:9/', allowedOrigins: [], allowPrivateAddresses: true, appium: hub(`http://127.0.0.1:${(server.address() as AddressInfo).port}/wd/hub`) };
      const cells = cloudCellsOf([iphone as never]);
      const run = new CloudCells({ hub: target.appium, cells, target, ctx, testName: 'Shop', testTimeoutMs: 5_000, deadline: Date.now() + 60_000 });
      const opened = await run.open(cells[0]!);
      expect(opened).toEqual({ skipped: false, error: "the session on BrowserStack did not start: invalid argument: Misconfigured -- Sauce Labs Authentication Error. You used username 'acme' and access key '••••' to authenticate" });
      expect(run.summaries[0]).toMatchObject({ sessionId: null, minutes: null, ran: null, note: 'error' in opened ? opened.error : 'a session' });
      expect(JSON.stringify(run.summaries)).not.toContain('bs-key-0123456789');
      // The key went as the session's basic auth, and nowhere else.
      expect(asked).toEqual([`POST /wd/hub/session Basic ${Buffer.from('acme:bs-key-0123456789').toString('base64')}`]);
    } finally {
      server.close();
    }
  });
});
