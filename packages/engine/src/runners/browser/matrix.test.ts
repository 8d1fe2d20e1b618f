import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserOptionsProblem, parseBrowserOptions } from '../../../test/helpers.ts';
import { browserWsVar } from './browser-servers.ts';
import { cloudCellsOf } from './cloud-cells.ts';
import { browserPaths, writeBrowserConfig } from './config.ts';
import { casesFromReport } from './json-report.ts';
import { failingWhere } from '@fullstop/contracts';
import { matrixOf, matrixSection } from './matrix-report.ts';

const parse = parseBrowserOptions;
const reason = browserOptionsProblem;

describe('browser engines and devices in a suite', () => {
  it('runs on Chromium on the desktop unless the test says otherwise', () => {
    expect(parse({})).toMatchObject({ engines: ['chromium'], devices: ['desktop'] });
    expect(parse({ engines: ['firefox', 'chromium'], devices: ['phone', 'tablet', 'desktop'] })).toMatchObject({ engines: ['firefox', 'chromium'], devices: ['phone', 'tablet', 'desktop'] });
  });

  it('names what cannot run and why', () => {
    expect(reason({ engines: ['safari'] })).toBe('options.engines.0: unknown engine "safari": the engines are chromium, firefox, webkit');
    expect(reason({ devices: ['watch'] })).toBe(`options.devices.0: unknown device "watch": the devices are desktop, phone, tablet, or a cloud device such as { cloud: 'iPhone 15', os: 'iOS 18', browser: 'safari' }`);
    expect(reason({ engines: [] })).toBe('options.engines: list at least one engine');
    expect(reason({ devices: ['phone', 'phone'] })).toBe('options.devices: lists the same device twice');
    expect(reason({ devices: ['desktop', 'phone'], viewport: { width: 800, height: 600 } })).toBe(
      'options.viewport: cannot run with devices phone: each device has its own viewport; drop viewport, or keep devices to desktop',
    );
    expect(reason({ devices: ['desktop'], viewport: { width: 800, height: 600 } })).toBeNull();
  });

  it('runs unshaped unless the test names networks, and counts the networks in the 12 cells', () => {
    expect(parse({})).toMatchObject({ networks: ['none'] });
    expect(parse({ networks: ['slow-3g', 'none', 'offline'] })).toMatchObject({ networks: ['slow-3g', 'none', 'offline'] });
    expect(reason({ networks: ['5g'] })).toBe('options.networks.0: unknown network "5g": the networks are none, offline, slow-3g, fast-3g, 4g, cable');
    expect(reason({ engines: ['chromium', 'firefox'], devices: ['desktop', 'phone'], networks: ['none', 'slow-3g', 'fast-3g'] })).toBeNull();
    expect(reason({ engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'], networks: ['none', 'slow-3g', 'fast-3g'] })).toBe(
      'options.networks: 2 engines × 3 devices × 3 networks make 18 cells; a test may have at most 12: split it in two tests',
    );
  });
});

describe('where a case fails', () => {
  it('calls out one engine, one device or one cell', () => {
    const f = 'failed' as const;
    const p = 'passed' as const;
    expect(failingWhere({ 'chromium/desktop': p, 'chromium/phone': p, 'firefox/desktop': f, 'firefox/phone': f })).toBe('fails on Firefox only');
    expect(failingWhere({ 'chromium/desktop': p, 'chromium/phone': f, 'firefox/desktop': p, 'firefox/phone': f })).toBe('fails on phone only');
    expect(failingWhere({ 'chromium/desktop': p, 'chromium/phone': p, 'firefox/desktop': p, 'firefox/phone': f })).toBe('fails on Firefox on phone only');
    expect(failingWhere({ 'chromium/desktop': p, 'chromium/phone': f, 'firefox/desktop': f, 'firefox/phone': p })).toBe('fails on Chromium · phone, Firefox · desktop');
    // A single engine's matrix: its device is the news, not its engine.
    expect(failingWhere({ 'firefox/desktop': p, 'firefox/phone': f, 'firefox/tablet': p })).toBe('fails on phone only');
    expect(failingWhere({ 'chromium/desktop': f, 'firefox/desktop': f })).toBeNull();
    expect(failingWhere({ 'chromium/desktop': p, 'firefox/desktop': p })).toBeNull();
  });

  it('calls out one network', () => {
    const f = 'failed' as const;
    const p = 'passed' as const;
    expect(failingWhere({ 'chromium/desktop/none': p, 'chromium/desktop/slow-3g': f, 'chromium/desktop/fast-3g': p })).toBe('fails on slow 3G only');
    expect(failingWhere({ 'chromium/desktop/none': p, 'chromium/desktop/slow-3g': f, 'firefox/desktop/none': p, 'firefox/desktop/slow-3g': f })).toBe('fails on slow 3G only');
    expect(failingWhere({ 'chromium/desktop/none': p, 'chromium/desktop/slow-3g': p, 'firefox/desktop/none': p, 'firefox/desktop/slow-3g': f })).toBe('fails on Firefox on desktop on slow 3G only');
    const cases = [
      { name: 'a.spec.ts › loads [chromium/desktop/none]', cell: 'chromium/desktop/none', status: p, durationMs: 1 },
      { name: 'a.spec.ts › loads [chromium/desktop/slow-3g]', cell: 'chromium/desktop/slow-3g', status: f, durationMs: 1 },
    ];
    expect(matrixSection(cases)).toContain('Engines, devices and networks (2 cells)');
    expect(matrixSection(cases)).toContain('Chromium · desktop · slow 3G');
    expect(matrixSection(cases)).toContain('fails on slow 3G only');
  });

  it('makes a row per case and a column per cell, and nothing for a test on Chromium on the desktop', () => {
    const cases = [
      { name: 'a.spec.ts › buys [chromium/desktop]', cell: 'chromium/desktop', status: 'passed' as const, durationMs: 1 },
      { name: 'a.spec.ts › buys [firefox/desktop]', cell: 'firefox/desktop', status: 'failed' as const, durationMs: 1 },
    ];
    expect(matrixOf(cases)).toEqual({ cells: ['chromium/desktop', 'firefox/desktop'], rows: [{ name: 'a.spec.ts › buys', cells: { 'chromium/desktop': 'passed', 'firefox/desktop': 'failed' }, where: 'fails on Firefox only' }] });
    expect(matrixSection(cases)).toContain('Firefox · desktop');
    expect(matrixSection(cases)).toContain('Firefox: spec files');
    // An accessibility test's cells all run axe: no "spec files" line.
    expect(matrixSection(cases, { whatRan: false })).not.toContain('spec files');
    expect(matrixSection([{ name: 'a.spec.ts › buys', status: 'failed', durationMs: 1 }])).toBe('');
  });

  it('says what each engine ran, naming only the page checks a test left on', () => {
    const page = (cell: string, steps: string[]) => ({ name: `page check › / [${cell}]`, cell, status: 'passed' as const, durationMs: 1, steps: steps.map((title) => ({ title, durationMs: 1 })) });
    const all = ['load /', 'no console errors after load', 'key elements h1', 'links and images (3)', 'axe (wcag2a)'];
    const withAxe = matrixSection([page('chromium/phone', all), page('webkit/phone', all)]);
    expect(withAxe).toContain('Chromium: page checks only (page loads, console errors after load, broken links, key elements, a screenshot, axe)');
    expect(withAxe).toContain('WebKit: page checks only (page loads, console errors after load, broken links, key elements, a screenshot, axe): Playwright cannot drive WebKitGTK, so no spec files');
    // pageChecks: { axe: 'off', links: false }: the report does not claim them.
    const fewer = ['load /', 'no console errors after load', 'key elements h1'];
    expect(matrixSection([page('chromium/phone', fewer), page('webkit/phone', fewer)])).toContain('WebKit: page checks only (page loads, console errors after load, key elements, a screenshot): Playwright');
  });

  it('reads a cell per project from the JSON report, with the steps of each', () => {
    const test = (projectName: string, status: 'expected' | 'unexpected') => ({ projectName, status, results: [{ duration: 5, retry: 0 }] });
    const report = { suites: [{ title: 'a.spec.ts', specs: [{ id: 'first-project-id', title: 'buys', file: 'a.spec.ts', line: 3, column: 5, tests: [test('chromium/phone', 'expected'), test('firefox/phone', 'unexpected')] }] }] };
    const steps = { 'chromium/phone a.spec.ts:3:5': [[{ title: 'on chromium', durationMs: 1 }]], 'firefox/phone a.spec.ts:3:5': [[{ title: 'on firefox', durationMs: 1 }]] };
    const { cases } = casesFromReport(report, { runDir: '/r', cells: true, steps });
    expect(cases.map((c) => [c.name, c.cell, c.status, c.steps?.[0]?.title])).toEqual([
      ['a.spec.ts › buys [chromium/phone]', 'chromium/phone', 'passed', 'on chromium'],
      ['a.spec.ts › buys [firefox/phone]', 'firefox/phone', 'failed', 'on firefox'],
    ]);
  });
});

describe('the Playwright config of a matrix', () => {
  async function configFor(options: Record<string, unknown>, networkProxyUrls?: Record<string, string>, more: Partial<Parameters<typeof writeBrowserConfig>[0]> = {}) {
    const dir = await mkdtemp(path.join(tmpdir(), 'fullstop-matrix-config-'));
    try {
      const paths = browserPaths(dir);
      await mkdir(paths.dir, { recursive: true });
      await writeBrowserConfig({ paths, suiteDir: dir, options: parse(options), baseUrl: 'http://127.0.0.1:1/', chromiumPath: '/usr/bin/chromium', firefoxPath: '/usr/bin/firefox-esr', workers: 1, proxyUrl: 'http://127.0.0.1:2', ...(networkProxyUrls ? { networkProxyUrls } : {}), ...more });
      return ((await import(paths.config)) as { default: { workers: number; projects: { name: string; use: Record<string, unknown>; workers?: number }[]; reporter: unknown[][]; use: Record<string, unknown> } }).default;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('connects a cloud cell’s project to the relay only: no proxy of ours, and the shared local browser is not given to it (decision 0106)', async () => {
    const [edge] = cloudCellsOf([{ cloud: 'Windows 11', browser: 'edge' }]);
    const relay = 'ws://127.0.0.1:3130/cell/0/00ff';
    // As in a worker forked after the shared browsers' setup: the local Chromium's WebSocket in the environment.
    process.env[browserWsVar('chromium')] = 'ws://127.0.0.1:9/shared';
    try {
      const config = await configFor({ devices: ['desktop', { cloud: 'Windows 11', browser: 'edge' }] }, undefined, { classic: false, cloudProjects: [{ cell: edge!, wsEndpoint: relay }] });
      const byName = Object.fromEntries(config.projects.map((p) => [p.name, p.use]));
      expect(Object.keys(byName)).toEqual(['chromium/desktop', 'cloud/edge@Windows 11']);
      expect(byName['cloud/edge@Windows 11']).toEqual({ browserName: 'chromium', connectOptions: { wsEndpoint: relay, timeout: 300_000 } });
      expect(byName['chromium/desktop']).toMatchObject({ proxy: { server: 'http://127.0.0.1:2', bypass: '<-loopback>' }, connectOptions: { wsEndpoint: 'ws://127.0.0.1:9/shared' } });
      expect(config.use).not.toHaveProperty('proxy');
    } finally {
      delete process.env[browserWsVar('chromium')];
    }
  });

  it('keeps a test on Chromium on the desktop as it was: one project named chromium, JUnit names without a cell', async () => {
    const config = await configFor({});
    expect(config.projects.map((p) => p.name)).toEqual(['chromium']);
    expect(config.projects[0]!.use).not.toHaveProperty('viewport');
    expect(config.reporter.find((r) => r[0] === 'junit')?.[1]).not.toHaveProperty('includeProjectInTestName');
  });

  it('makes a project per cell: Debian Firefox over BiDi with loopback through the proxy, the device per engine', async () => {
    const config = await configFor({ engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'] });
    expect(config.projects.map((p) => p.name)).toEqual(['chromium/desktop', 'chromium/phone', 'chromium/tablet', 'firefox/desktop', 'firefox/phone', 'firefox/tablet']);
    const byName = Object.fromEntries(config.projects.map((p) => [p.name, p.use]));
    expect(byName['chromium/phone']).toMatchObject({ viewport: { width: 412, height: 839 }, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true, userAgent: expect.stringContaining('Pixel 7') });
    expect(byName['firefox/phone']).toMatchObject({ browserName: '_bidiFirefox', channel: 'moz-firefox', viewport: { width: 412, height: 839 }, deviceScaleFactor: 2.625, userAgent: expect.stringContaining('Pixel 7') });
    expect(byName['firefox/phone']).not.toHaveProperty('isMobile');
    expect(byName['firefox/phone']).not.toHaveProperty('hasTouch');
    expect(byName['firefox/desktop']).toMatchObject({
      proxy: { server: 'http://127.0.0.1:2' },
      launchOptions: { executablePath: '/usr/bin/firefox-esr', firefoxUserPrefs: expect.objectContaining({ 'network.proxy.allow_hijacking_localhost': true, 'media.peerconnection.enabled': false }) },
    });
    expect(byName['firefox/desktop']).not.toHaveProperty('userAgent');
    expect(byName['chromium/tablet']).toMatchObject({ viewport: { width: 712, height: 1138 } });
    expect(config.reporter.find((r) => r[0] === 'junit')?.[1]).toMatchObject({ includeProjectInTestName: true });
  });

  it('sends the cells of each network through its own proxy, and names the network in the cell', async () => {
    const config = await configFor({ engines: ['chromium', 'firefox'], networks: ['none', 'slow-3g'] }, { 'slow-3g': 'http://127.0.0.1:3' });
    const byName = Object.fromEntries(config.projects.map((p) => [p.name, p.use]));
    expect(Object.keys(byName)).toEqual(['chromium/desktop/none', 'chromium/desktop/slow-3g', 'firefox/desktop/none', 'firefox/desktop/slow-3g']);
    expect(byName['chromium/desktop/none']).toMatchObject({ proxy: { server: 'http://127.0.0.1:2', bypass: '<-loopback>' } });
    expect(byName['chromium/desktop/slow-3g']).toMatchObject({ proxy: { server: 'http://127.0.0.1:3', bypass: '<-loopback>' } });
    expect(byName['firefox/desktop/none']).toMatchObject({ proxy: { server: 'http://127.0.0.1:2' } });
    expect(byName['firefox/desktop/slow-3g']).toMatchObject({ proxy: { server: 'http://127.0.0.1:3' } });
  });

  it('runs shaped cells several at once, each cell held to the workers it had (issue 40: cells that wait run together)', async () => {
    const config = await configFor({ engines: ['chromium', 'firefox'], networks: ['4g', 'slow-3g'] }, { '4g': 'http://127.0.0.1:3', 'slow-3g': 'http://127.0.0.1:4' }, { workers: 2, workersPerCell: 1 });
    expect(config.workers).toBe(2);
    expect(config.projects.map((p) => p.workers)).toEqual([1, 1, 1, 1]);
    // Without a limit a cell, as before: Playwright's default.
    const before = await configFor({ engines: ['chromium', 'firefox'] });
    expect(before.projects.map((p) => p.workers)).toEqual([undefined, undefined]);
  });
});
