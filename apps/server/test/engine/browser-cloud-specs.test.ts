import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudCellSessions, engineAttempts, engineRunTests } from '../../src/db/schema/index.ts';
import { CloudCellAttempt } from '../../src/features/mobile-devices/clouds/browser-cells.ts';
import { buildTestApp, createTestClient } from '../helpers/app.ts';
import { CHROMEDRIVER, type LocalBrowsers, startLocalBrowsers } from './fake-cloud-browsers.ts';
import { startCloud } from './fake-clouds.ts';
import { importSuite, key, manifest, OPERATOR_TOKEN, operator, runAndWait } from './helpers.ts';

/** A shop whose Buy button is taken away in Edge, by its user agent: broken on Windows' Edge only. */
async function startShop() {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme shop</title></head>
<body><main><h1>Acme shop</h1><button id="buy" type="button">Buy</button></main>
<script>if (/Edg\\//.test(navigator.userAgent)) document.getElementById('buy').remove();</script></body></html>`;
  const server = http.createServer((req, res) => {
    if (req.url !== '/') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The client's spec: it prints all it can see of its process (its environment, the connection it was given), then buys. */
const SPEC = `import { expect, test } from '@playwright/test';
test('the Buy button is there', async ({ page }, testInfo) => {
  const connect = testInfo.project.use.connectOptions;
  console.log('SEEN ' + JSON.stringify({ project: testInfo.project.name, env: process.env, wsEndpoint: connect ? connect.wsEndpoint : null }));
  await page.goto('/');
  await expect(page.locator('#buy')).toBeVisible({ timeout: 5000 });
});
`;

/** Every file below a folder, as text (a database's pages included: a key written anywhere would show). */
async function filesBelow(dir: string): Promise<{ file: string; text: string }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  return Promise.all(files.map(async (file) => ({ file, text: await readFile(file, 'latin1').catch(() => '') })));
}

/** What the spec printed ("SEEN {…}"), found in a JSON file the run kept (Playwright's report keeps each test's stdout). */
function printedIn(text: string): string[] {
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') found.push(...v.split('\n').filter((line) => line.startsWith('SEEN ')).map((line) => line.slice(5)));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  try {
    walk(JSON.parse(text));
  } catch {
    // Not JSON: nothing printed in it.
  }
  return found;
}

type CloudCell = { cell: string; label: string; ran: string | null; cannot: string; minutes: number | null; billedMinutes?: number | null; specSessionIds?: string[]; sessionId: string | null };
type Case = { name: string; status: string; cell?: string; error?: string };

const noDrivers = !existsSync(CHROMEDRIVER);
const account = { username: 'acme_qa', accessKey: 'bs-playwright-key-5d1e-0123456789' };

/**
 * Spec files on a cloud cell (decision 0106), through the real server and runner: BrowserStack's fake Playwright
 * endpoint (a local Chromium browser server with Edge's user agent) behind the runner's relay, which alone holds the
 * key. A local Chromium cell, BrowserStack's Windows Edge (spec files and page checks) and a real Android device
 * (page checks only: no provider gives Playwright a phone).
 */
describe.skipIf(noDrivers)('spec files on a BrowserStack desktop cloud cell', () => {
  let app: FastifyInstance;
  let shop: Awaited<ReturnType<typeof startShop>>;
  let browsers: LocalBrowsers;
  let cloud: Awaited<ReturnType<typeof startCloud>>;
  /** The run of the capped test: its attempt's rows serve the server's own rules' test. */
  let cappedRun: { runId: string; clientId: string } | undefined;

  beforeAll(async () => {
    shop = await startShop();
    browsers = await startLocalBrowsers();
    cloud = await startCloud('browserstack', account, { browsers });
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true } });
    await app.engine.startWorkers(1);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await cloud?.close();
    await browsers?.close();
    await shop?.close();
  });

  it('fails exactly the cell where the site is broken, with the provider’s billed minutes, and the key never reaches the spec', async () => {
    const client = await createTestClient(app, { website: shop.url });
    const devices = ['desktop', { cloud: 'Windows 11', browser: 'edge' }, { cloud: 'Google Pixel 8', os: 'Android 14', browser: 'chrome' }];
    const test = { name: 'Buy everywhere', kind: 'browser', options: { devices, specs: 'buy.spec.ts', pages: [{ path: '/', expect: ['#buy'] }], pageChecks: { settleMs: 200, axe: 'off' }, testTimeoutMs: 60_000 } };
    const imported = await importSuite(app, client.clientId, { 'suite.json': manifest({ Shop: [test] }), 'buy.spec.ts': SPEC });
    expect(imported.statusCode, imported.body).toBe(201);
    const set = await app.inject({ method: 'PUT', url: `/operator/clients/${client.clientId}/mobile-devices`, headers: operator, payload: { kind: 'browserstack', url: cloud.url, apiUrl: cloud.apiUrl, ...account } });
    expect(set.statusCode, set.body).toBe(200);

    const detail = (await runAndWait(app, client, 'Buy everywhere', 300_000)) as { runId: string; tests: { testName: string; status: string; error: string | null }[] };
    expect(detail.tests[0]).toMatchObject({ status: 'failed' });
    const json = await app.inject({ url: `/report/fetch/${encodeURIComponent('Buy everywhere')}/json`, headers: key(client) });
    const html = (await app.inject({ url: `/report/fetch/${encodeURIComponent('Buy everywhere')}/html`, headers: key(client) })).body;
    const summary = json.json().summary as { cases: Case[]; cloudCells: CloudCell[] };

    // The spec file ran on the local cell and on BrowserStack's Edge, and fails on Edge only; the phone ran page checks.
    const statuses = summary.cases.map((c) => [c.cell, c.name.startsWith('page check') ? 'page' : 'spec', c.status]);
    expect(statuses).toEqual(
      expect.arrayContaining([
        ['chromium/desktop', 'spec', 'passed'],
        ['cloud/edge@Windows 11', 'spec', 'failed'],
        ['chromium/desktop', 'page', 'passed'],
        ['cloud/edge@Windows 11', 'page', 'failed'],
        ['cloud/chrome@Google Pixel 8 (Android 14)', 'page', 'passed'],
      ]),
    );
    expect(statuses).toHaveLength(5);
    expect(html).toContain('fails on Edge on Windows 11 only');
    expect(html).not.toContain('the cloud cells only');
    expect(html).toContain('Cloud: spec files and page checks');

    // One Playwright session on BrowserStack, asked in its capabilities, with our Playwright's version.
    expect(cloud.playwrightSessions.map((s) => s.caps)).toEqual([
      { browser: 'edge', os: 'Windows', os_version: '11', name: 'Fullstop QA: Buy everywhere · Edge on Windows 11 · spec files', build: expect.stringMatching(/^Fullstop QA [0-9a-f]{12}$/), 'client.playwrightVersion': expect.stringMatching(/^1\.\d+\.\d+$/) },
    ]);
    const [edge, pixel] = summary.cloudCells;
    expect(edge).toMatchObject({ label: 'Edge on Windows 11', ran: 'spec files and page checks (page loads, console errors after load, broken links, key elements, a screenshot, axe)', specSessionIds: cloud.playwrightSessions.map((s) => s.id) });
    expect(edge!.cannot).toMatch(/^our policy proxy and network shaping/);
    expect(pixel).toMatchObject({ ran: expect.stringMatching(/^page checks only/), cannot: expect.stringMatching(/^Playwright spec files \(BrowserStack gives Playwright no real phone or tablet: page checks only\), our policy proxy/) });
    // The provider's count beside ours: BrowserStack's seconds of every session of the cell, as minutes to a tenth.
    for (const c of [edge!, pixel!]) {
      expect(c.minutes).toBeGreaterThan(0);
      expect(c.billedMinutes).toBeGreaterThan(0);
      expect(html).toContain(`BrowserStack billed ${c.billedMinutes} minute`);
    }

    // The spec files' session is the server's too: asked before the relay's first connection, let go after the spec
    // part, its time in the run's cloud minutes (which the client's cap bounds) beside the page checks' sessions.
    const rows = await app.db.select().from(cloudCellSessions).where(eq(cloudCellSessions.runId, detail.runId));
    expect(rows.map((r) => [r.cellIndex, r.cell, r.endedAt !== null]).sort()).toEqual([
      [0, 'Edge on Windows 11', true],
      [0, 'Edge on Windows 11', true],
      [1, 'Chrome on Google Pixel 8 (Android 14)', true],
    ]);
    for (const r of rows) expect(r.endedAt!.getTime()).toBeGreaterThan(r.startedAt.getTime());

    // The key: in the fake's connection only, never in what the spec saw, the reports or anything the server kept.
    const edgeSaw = (await filesBelow(app.paths.dataDir))
      .filter(({ file }) => file.endsWith('.json'))
      .flatMap(({ text }) => printedIn(text))
      .find((s) => s.includes('"project":"cloud/edge@Windows 11"'));
    expect(edgeSaw, 'the spec’s output on the cloud cell is kept').toBeDefined();
    expect(edgeSaw).toMatch(/"wsEndpoint":"ws:\/\/127\.0\.0\.1:\d+\/cell\/0\/[0-9a-f]{32}"/);
    for (const text of [edgeSaw!, json.body, html]) {
      expect(text).not.toContain(account.accessKey);
      expect(text).not.toContain(encodeURIComponent(account.accessKey));
    }
    const leaked = (await filesBelow(app.paths.dataDir)).filter(({ text }) => text.includes(account.accessKey) || text.includes(encodeURIComponent(account.accessKey)));
    expect(leaked.map((f) => f.file)).toEqual([]);
  }, 600_000);

  it('does not start a cloud cell’s spec files once the client’s cap of cloud minutes per run is used up', async () => {
    const client = await createTestClient(app, { website: shop.url });
    const test = { name: 'Buy within the cap', kind: 'browser', options: { devices: ['desktop', { cloud: 'Windows 11', browser: 'edge' }], specs: 'buy.spec.ts', testTimeoutMs: 60_000 } };
    const imported = await importSuite(app, client.clientId, { 'suite.json': manifest({ Shop: [test] }), 'buy.spec.ts': SPEC });
    expect(imported.statusCode, imported.body).toBe(201);
    const set = await app.inject({ method: 'PUT', url: `/operator/clients/${client.clientId}/mobile-devices`, headers: operator, payload: { kind: 'browserstack', url: cloud.url, apiUrl: cloud.apiUrl, ...account, cloudMinutesPerRun: 0 } });
    expect(set.statusCode, set.body).toBe(200);
    const sessionsBefore = cloud.playwrightSessions.length;
    const refusedBefore = cloud.playwrightRefused.length;

    const detail = (await runAndWait(app, client, 'Buy within the cap', 300_000)) as { runId: string; tests: { testName: string; status: string; error: string | null }[] };
    expect(detail.tests[0]).toMatchObject({ status: 'passed', error: null });
    const json = await app.inject({ url: `/report/fetch/${encodeURIComponent('Buy within the cap')}/json`, headers: key(client) });
    const html = (await app.inject({ url: `/report/fetch/${encodeURIComponent('Buy within the cap')}/html`, headers: key(client) })).body;
    const summary = json.json().summary as { cases: Case[]; cloudCells: (CloudCell & { note?: string })[] };

    // The spec file ran on the local cell; on the cloud cell it is skipped with the page checks' words for the cap.
    const capped = 'not started: the client’s cap of 0 cloud minutes per run is used up (0 used by this run’s cloud cells): an operator sets it on the client’s page';
    expect(summary.cases.map((c) => [c.cell, c.status, c.error ?? null])).toEqual(
      expect.arrayContaining([
        ['chromium/desktop', 'passed', null],
        ['cloud/edge@Windows 11', 'skipped', capped],
      ]),
    );
    expect(summary.cases).toHaveLength(2);
    expect(summary.cloudCells.map((c) => [c.label, c.ran, c.minutes, c.note])).toEqual([['Edge on Windows 11', null, null, capped]]);
    expect(html).toContain(`did not run: ${capped}`);
    // No connection reached BrowserStack, and the run holds no cloud minutes.
    expect(cloud.playwrightSessions).toHaveLength(sessionsBefore);
    expect(cloud.playwrightRefused).toHaveLength(refusedBefore);
    expect(await app.db.select().from(cloudCellSessions).where(eq(cloudCellSessions.runId, detail.runId))).toEqual([]);
    cappedRun = { runId: detail.runId, clientId: client.clientId };
  }, 300_000);

  it('gives a cloud cell one page-check and one spec session, once each, and closes what a killed runner left', async () => {
    expect(cappedRun, 'the capped run of the test before').toBeDefined();
    const { runId, clientId } = cappedRun!;
    const [attempt] = await app.db.select({ id: engineAttempts.id }).from(engineAttempts).innerJoin(engineRunTests, eq(engineAttempts.runTestId, engineRunTests.id)).where(eq(engineRunTests.runId, runId));
    const runDir = await mkdtemp(path.join(os.tmpdir(), 'cloud-cells-'));
    const cells = new CloudCellAttempt(app.db, { kind: 'browserstack', url: cloud.url, ...account }, { clientId, runId, attemptId: attempt!.id, runDir, cells: [{ label: 'Edge on Windows 11', specs: true }, { label: 'Chrome on Google Pixel 8 (Android 14)', specs: false }], cap: null, allowPrivate: true, log: () => {} });
    const ask = (index: number, part?: string) => cells.openCell({ index, label: 'x', capabilities: {}, deadline: Date.now() + 60_000, ...(part ? { part: part as 'specs' } : {}) });
    try {
      await expect(ask(0, 'specs')).resolves.toEqual({ url: cloud.url });
      // Beside it: the same cell's page checks, then another cell's (one page-check session at a time).
      await expect(ask(0)).resolves.toEqual({ url: cloud.url });
      await expect(ask(1)).rejects.toThrow('another cloud cell of this attempt still has its session: one at a time');
      await cells.closeCell(0);
      await expect(ask(1)).resolves.toEqual({ url: cloud.url });
      // Never twice, never a cell the test lacks or one whose provider runs no spec files there, never another part.
      await expect(ask(0, 'specs')).rejects.toThrow('cloud cell 0 cannot have a spec files’ session: this test has 2 cloud cells, each of them one such session at most');
      await expect(ask(0)).rejects.toThrow('cloud cell 0 cannot have a page checks’ session');
      await expect(ask(2, 'specs')).rejects.toThrow('cloud cell 2 cannot have a spec files’ session');
      await expect(ask(1, 'specs')).rejects.toThrow('cloud cell 1 (Chrome on Google Pixel 8 (Android 14)) runs no spec files on BrowserStack');
      await expect(ask(0, 'video')).rejects.toThrow('a cloud cell has no session part "video": pages or specs');
      // The runner is gone with its spec session and a page-check session open: the attempt's end closes both rows.
      await cells.endAll();
      const rows = await app.db.select().from(cloudCellSessions).where(eq(cloudCellSessions.runId, runId));
      expect(rows.map((r) => [r.cellIndex, r.endedAt !== null]).sort()).toEqual([
        [0, true],
        [0, true],
        [1, true],
      ]);
    } finally {
      await rm(runDir, { recursive: true, force: true });
    }
  });

  it('refuses a wrong key at BrowserStack’s Playwright endpoint before any WebSocket, as the real one does', async () => {
    const caps = { browser: 'edge', os: 'Windows', os_version: '11', 'browserstack.username': account.username, 'browserstack.accessKey': 'not-the-key' };
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${cloud.apiUrl}/playwright?caps=${encodeURIComponent(JSON.stringify(caps))}`, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('upgrade', () => reject(new Error('upgraded with a wrong key')));
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(401);
    expect(cloud.playwrightRefused).toEqual(['/playwright']);
    // Its REST API: a wrong key is refused, an unknown session is not found.
    const get = (url: string, key: string) => fetch(`${cloud.apiUrl}${url}`, { headers: { authorization: `Basic ${Buffer.from(`${account.username}:${key}`).toString('base64')}` } });
    expect((await get('/automate/builds.json', 'not-the-key')).status).toBe(401);
    expect((await get(`/automate/sessions/${'0'.repeat(40)}.json`, account.accessKey)).status).toBe(404);
  });
});
