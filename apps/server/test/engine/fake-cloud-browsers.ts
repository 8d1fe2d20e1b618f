import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../../../packages/engine/src/lib/free-port.ts';
import { waitForDriver } from '../../../../packages/engine/src/lib/webdriver.ts';
import { startWebKitHost, type WebKitHost, webkitPaths } from '../../../../packages/engine/src/lib/webkit.ts';

/**
 * The browsers behind the fake device clouds' WebDriver hubs (fake-clouds.ts, fake-device-farm.ts): a cloud's Chrome,
 * Edge or Android Chrome is Debian's Chromium through Debian's chromedriver (`--headless=new --no-sandbox`), a cloud's
 * Safari (iPhone or macOS) is WebKitGTK's MiniBrowser through WebKitWebDriver under an Xvfb of its own, each with the
 * user agent and viewport of the device the cloud cell named, as the provider's real device would show them. Nothing
 * here goes through the policy proxy: a cloud's browser is on the provider's network, not ours.
 */

export const CHROMEDRIVER = process.env.CHROMEDRIVER_PATH ?? '/usr/bin/chromedriver';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What a cloud session asked for, in the provider's own capabilities, read by the fake hub. */
export interface CloudBrowserAsk {
  browser: string;
  /** A real phone or tablet (its device name), or a desktop (Windows, macOS). */
  device: string;
  platform: 'iOS' | 'Android' | 'Windows' | 'macOS';
  osVersion: string | null;
}

/** The user agent and viewport the device's browser shows a site. */
export function deviceProfile(ask: CloudBrowserAsk): { userAgent: string; viewport: { width: number; height: number }; mobile: boolean } {
  const ios = (ask.osVersion ?? '18').split('.')[0];
  if (ask.platform === 'iOS') {
    const ipad = /ipad/i.test(ask.device);
    return {
      userAgent: `Mozilla/5.0 (${ipad ? 'iPad; CPU OS' : 'iPhone; CPU iPhone OS'} ${ios}_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${ios}.0 Mobile/15E148 Safari/604.1`,
      viewport: ipad ? { width: 820, height: 1180 } : { width: 393, height: 852 },
      mobile: true,
    };
  }
  if (ask.platform === 'Android') {
    return { userAgent: `Mozilla/5.0 (Linux; Android ${ask.osVersion?.split('.')[0] ?? '14'}; ${ask.device.replace(/^Google /, '')}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36`, viewport: { width: 412, height: 915 }, mobile: true };
  }
  if (ask.platform === 'macOS') {
    return { userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15', viewport: { width: 1440, height: 900 }, mobile: false };
  }
  const edge = /edge/i.test(ask.browser);
  return { userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36${edge ? ' Edg/156.0.0.0' : ''}`, viewport: { width: 1366, height: 768 }, mobile: false };
}

export interface DriverAnswer {
  status: number;
  body: Buffer;
}

async function send(url: string, method: string, body?: Buffer | string): Promise<DriverAnswer> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(body);
    const req = http.request(url, { method, headers: data ? { 'content-type': 'application/json', 'content-length': String(data.length) } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** A driver in a process group of its own, so its browsers go with it. */
function startDetached(file: string, args: string[]): ChildProcess {
  const child = spawn(file, args, { detached: true, stdio: 'ignore' });
  child.on('error', () => {});
  return child;
}
const killGroup = (child: ChildProcess | null) => {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
};

export interface LocalBrowsers {
  /** Opens a local session for what the cloud session asked; its answer as the local driver gave it. */
  create(ask: CloudBrowserAsk): Promise<DriverAnswer & { sessionId?: string }>;
  /** A command of a session (`rest` is what follows `/session/<id>`), forwarded to the driver that holds it. */
  forward(method: string, sessionId: string, rest: string, body: Buffer): Promise<DriverAnswer>;
  /** The sessions open now (not deleted). */
  open(): string[];
  /** What each session asked, by id. */
  asked: Map<string, CloudBrowserAsk>;
  close(): Promise<void>;
}

export async function startLocalBrowsers(): Promise<LocalBrowsers> {
  let chromedriver: { child: ChildProcess; url: string } | null = null;
  let webkit: { host: WebKitHost; home: string; controller: AbortController } | null = null;
  const holders = new Map<string, string>();
  const asked = new Map<string, CloudBrowserAsk>();

  const chrome = async () => {
    if (chromedriver) return chromedriver.url;
    const port = await freePort();
    const child = startDetached(CHROMEDRIVER, [`--port=${port}`, '--allowed-ips=127.0.0.1']);
    const url = `http://127.0.0.1:${port}`;
    chromedriver = { child, url };
    await waitForDriver(url, 20_000);
    return url;
  };
  const safari = async () => {
    if (webkit) return webkit.host;
    const home = await mkdtemp(path.join(tmpdir(), 'fullstop-fake-cloud-webkit-'));
    const controller = new AbortController();
    const host = await startWebKitHost(webkitPaths({}), { home, signal: controller.signal });
    webkit = { host, home, controller };
    return host;
  };

  return {
    asked,
    async create(ask) {
      const profile = deviceProfile(ask);
      let base: string;
      let caps: Record<string, unknown>;
      if (/safari/i.test(ask.browser)) {
        const host = await safari();
        base = host.driverUrl;
        caps = { 'webkitgtk:browserOptions': { binary: host.paths.miniBrowser, args: ['--automation', `--user-agent=${profile.userAgent}`] }, pageLoadStrategy: 'normal' };
      } else if (/chrome|edge/i.test(ask.browser)) {
        base = await chrome();
        const { width, height } = profile.viewport;
        caps = {
          browserName: 'chrome',
          pageLoadStrategy: 'normal',
          'goog:chromeOptions': {
            binary: CHROMIUM,
            args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', `--user-agent=${profile.userAgent}`, `--window-size=${width},${height}`],
            ...(profile.mobile ? { mobileEmulation: { deviceMetrics: { width, height, pixelRatio: 3, touch: true, mobile: true }, userAgent: profile.userAgent } } : {}),
          },
        };
      } else {
        return { status: 500, body: Buffer.from(JSON.stringify({ value: { error: 'session not created', message: `this fake cloud has no ${ask.browser}` } })) };
      }
      const answer = await send(`${base}/session`, 'POST', JSON.stringify({ capabilities: { alwaysMatch: caps } }));
      const value = (JSON.parse(answer.body.toString()) as { value?: { sessionId?: string; capabilities?: Record<string, unknown> } }).value;
      const id = value?.sessionId;
      if (!id) return answer;
      holders.set(id, base);
      asked.set(id, ask);
      // MiniBrowser takes its window's size: sized so that the page's viewport is the device's (its frame added).
      if (/safari/i.test(ask.browser)) {
        const want = profile.viewport;
        await send(`${base}/session/${id}/window/rect`, 'POST', JSON.stringify({ x: 0, y: 0, ...want }));
        const inner = JSON.parse((await send(`${base}/session/${id}/execute/sync`, 'POST', JSON.stringify({ script: 'return [innerWidth, innerHeight]', args: [] }))).body.toString()) as { value: [number, number] };
        await send(`${base}/session/${id}/window/rect`, 'POST', JSON.stringify({ x: 0, y: 0, width: want.width * 2 - inner.value[0], height: want.height * 2 - inner.value[1] }));
      }
      // The session answers as the provider's browser would: its name and platform, not the local driver's.
      const capabilities = { ...(value?.capabilities ?? {}), browserName: ask.browser, platformName: ask.platform };
      return { status: answer.status, body: Buffer.from(JSON.stringify({ value: { sessionId: id, capabilities } })), sessionId: id };
    },
    async forward(method, sessionId, rest, body) {
      const base = holders.get(sessionId);
      if (!base) return { status: 404, body: Buffer.from(JSON.stringify({ value: { error: 'invalid session id', message: 'No such session' } })) };
      const answer = await send(`${base}/session/${sessionId}${rest}`, method, method === 'GET' || method === 'DELETE' ? undefined : body);
      if (method === 'DELETE' && rest === '') holders.delete(sessionId);
      return answer;
    },
    open: () => [...holders.keys()],
    async close() {
      for (const id of [...holders.keys()]) await send(`${holders.get(id)}/session/${id}`, 'DELETE').catch(() => undefined);
      holders.clear();
      killGroup(chromedriver?.child ?? null);
      chromedriver = null;
      if (webkit) {
        await webkit.host.close();
        await rm(webkit.home, { recursive: true, force: true });
        webkit = null;
      }
    },
  };
}
