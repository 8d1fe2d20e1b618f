/**
 * One browser an engine for a browser test's spec files (issue 40): Playwright's globalSetup, in the Playwright
 * process the runner starts (jailed with it, decision 0090: the browser servers' Playwright lives in the same network
 * namespace as the client's specs, whose only ways out are the policy proxies). It launches one browser an engine the
 * test's cells use and names each one's WebSocket in the environment the workers are forked with; the generated
 * config points every project of that engine at it (`connectOptions`), and each cell is then a context of it, with
 * the cell's device and its network's proxy as context options (Playwright takes `proxy` per context). Without this,
 * every worker launched its own: one a cell, four of them Firefox's in a 12-cell test.
 *
 * A launch that fails leaves the workers to launch their own, as before; a browser that dies is launched again for
 * the workers forked after it (the ones connected to it fail their test, as a crashed browser's did), at most
 * SHARED_LAUNCHES_MAX times an engine.
 *
 * A test with page checks too has its browsers from the attempt's browser host instead (decision 0110,
 * browser-host.ts, with `launchSharedBrowsers` below): the engines it serves are named in the Playwright process's
 * environment already, and this setup launches none of them.
 */
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import type { BrowserServer, BrowserType, LaunchOptions } from 'playwright-core';

/** The runner's word to this setup: each engine's `browserName` → its launch options (JSON). */
export const BROWSER_SERVERS_ENV = 'FULLSTOP_BROWSER_SERVERS';
/** Where this setup writes how many browsers it launched, for the runner's log. */
export const BROWSER_SERVERS_RECORD_ENV = 'FULLSTOP_BROWSER_SERVERS_RECORD';
/** The variable naming a shared browser's WebSocket in the workers' environment. */
export const browserWsVar = (browserName: string) => `FULLSTOP_BROWSER_WS_${browserName.replace(/[^A-Za-z0-9]/g, '_')}`;

/** What starts each line the attempt's browser host (browser-host.ts) writes for the runner; the rest is JSON. */
export const HOST_LINE = 'fullstop-browser-host ';

/** What the setup records: each engine's launches (relaunches included) by the time they took, and launches that failed. */
export interface BrowserServersRecord {
  launchMs: Record<string, number[]>;
  failed: Record<string, string>;
}

/** How long a launch may take before the workers launch their own instead (guarded-browser.ts gives its launches as long). */
export const SHARED_LAUNCH_TIMEOUT_MS = 30_000;
/** Launches of one engine's shared browser an attempt, the first included: a browser that keeps dying is not chased. */
export const SHARED_LAUNCHES_MAX = 3;

/** Playwright's browser types by `browserName`, for a shared browser's launch or a connection to one. */
export function launchers(): Record<string, BrowserType> {
  // Firefox over WebDriver BiDi is not among the ESM entry's names; the CommonJS module has every engine.
  const core = createRequire(import.meta.url)('playwright-core') as Record<string, BrowserType>;
  return { chromium: core.chromium!, _bidiFirefox: core._bidiFirefox! };
}

/** One engine's shared browser as the setup launches it: Playwright's launch options, and where its server listens. */
export type SharedLaunch = LaunchOptions & { port?: number; wsPath?: string };

/** Shared browsers being served: what has been launched so far, and the way to close them all. */
export interface SharedBrowsers {
  record: BrowserServersRecord;
  close(): Promise<void>;
}

/**
 * Launches one browser server an engine of `wanted` (its `browserName` → launch options), each again after it died
 * (SHARED_LAUNCHES_MAX launches in all); `changed` is told each time one is launched, fails or closes, with the
 * engine's WebSocket (null: none now). Used by Playwright's globalSetup below and by the attempt's browser host
 * (browser-host.ts), which serves the page checks too.
 */
export async function launchSharedBrowsers(wanted: Record<string, SharedLaunch>, changed: (browserName: string, wsEndpoint: string | null, record: BrowserServersRecord) => void): Promise<SharedBrowsers> {
  const record: BrowserServersRecord = { launchMs: {}, failed: {} };
  const types = launchers();
  const servers = new Map<string, BrowserServer>();
  let closing = false;

  async function start(browserName: string, options: SharedLaunch): Promise<void> {
    const type = types[browserName];
    if (!type) return;
    const asked = performance.now();
    try {
      const server = await type.launchServer({ timeout: SHARED_LAUNCH_TIMEOUT_MS, ...options, headless: true, host: '127.0.0.1' });
      const launches = (record.launchMs[browserName] ??= []);
      launches.push(Math.round(performance.now() - asked));
      servers.set(browserName, server);
      changed(browserName, server.wsEndpoint(), record);
      server.once('close', () => {
        servers.delete(browserName);
        changed(browserName, null, record);
        // Launched again for whoever connects from now on; after SHARED_LAUNCHES_MAX, they launch their own.
        if (!closing && launches.length < SHARED_LAUNCHES_MAX) void start(browserName, options);
      });
    } catch (error) {
      record.failed[browserName] = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
      changed(browserName, null, record);
    }
  }

  await Promise.all(Object.entries(wanted).map(([browserName, options]) => start(browserName, options)));
  return {
    record,
    async close() {
      closing = true;
      await Promise.all([...servers.values()].map((s) => s.close().catch(() => undefined)));
    },
  };
}

export default async function setup(): Promise<() => Promise<void>> {
  const wanted = JSON.parse(process.env[BROWSER_SERVERS_ENV] ?? '{}') as Record<string, LaunchOptions>;
  const recordFile = process.env[BROWSER_SERVERS_RECORD_ENV];
  const shared = await launchSharedBrowsers(wanted, (browserName, wsEndpoint, record) => {
    // Workers forked from now on connect to it, or (none now) launch their own.
    if (wsEndpoint) process.env[browserWsVar(browserName)] = wsEndpoint;
    else delete process.env[browserWsVar(browserName)];
    if (recordFile) writeFileSync(recordFile, JSON.stringify(record));
  });
  // Written even when it launched none (the attempt's browser host serves every engine): the runner logs it.
  if (recordFile) writeFileSync(recordFile, JSON.stringify(shared.record));
  return () => shared.close();
}
