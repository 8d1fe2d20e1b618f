import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import { type BrowserServer, chromium } from 'playwright-core';
import { joinUpgraded } from '../../../../packages/engine/src/runners/browser/cloud-relay.ts';
import { deviceProfile } from './fake-cloud-browsers.ts';

/** The flags of the fake's Chromium: nothing of it calls out (no updates, no sync, no QUIC), and no GPU on this machine. */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** One Playwright session of the fake BrowserStack: its id, the capabilities it was asked with (key removed), its time. */
export interface PlaywrightSession {
  id: string;
  caps: Record<string, unknown>;
  started: number;
  ended: number | null;
}

/**
 * BrowserStack's Playwright endpoint as it answers (`wss://cdp.browserstack.com/playwright?caps=<JSON>`): the user
 * name and key come in the capabilities; a wrong pair gets a 401 before any WebSocket. Otherwise the session gets a
 * 40-hex id (BrowserStack's `hashed_id`, by which its REST API answers the session and its build) and its frames are
 * carried to a local Playwright browser server: Debian's Chromium for `chrome` and `edge`, with the desktop's user
 * agent, on no proxy (a provider's browser is on its network, not ours). Playwright's own WebKit and Firefox builds
 * cannot be had here: `playwright-webkit` and `playwright-firefox` get BrowserStack's refusal of a browser it lacks.
 */
export function fakePlaywrightEndpoint(account: { username: string; accessKey: string }) {
  const sessions: PlaywrightSession[] = [];
  const refused: string[] = [];
  const servers = new Map<string, Promise<BrowserServer>>();
  const sockets = new Set<Socket>();

  const serverFor = (caps: Record<string, unknown>) => {
    const mac = caps.os === 'OS X';
    const { userAgent } = deviceProfile({ browser: String(caps.browser), device: `${mac ? 'macOS' : 'Windows'} ${String(caps.os_version ?? '')}`, platform: mac ? 'macOS' : 'Windows', osVersion: String(caps.os_version ?? '') });
    let server = servers.get(userAgent);
    if (!server) {
      server = chromium.launchServer({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS, `--user-agent=${userAgent}`], headless: true, host: '127.0.0.1' });
      servers.set(userAgent, server);
    }
    return server;
  };

  const reject = (socket: Socket, status: number, body: string) => socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${body}`);

  /** The server's `upgrade` handler; false when the request is not the Playwright endpoint's. */
  const upgrade = (req: http.IncomingMessage, socket: Socket, head: Buffer): boolean => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname !== '/playwright') return false;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let caps: Record<string, unknown>;
    try {
      caps = JSON.parse(url.searchParams.get('caps') ?? '') as Record<string, unknown>;
    } catch {
      reject(socket, 400, JSON.stringify({ message: 'caps is not JSON' }));
      return true;
    }
    if (caps['browserstack.username'] !== account.username || caps['browserstack.accessKey'] !== account.accessKey) {
      refused.push('/playwright');
      reject(socket, 401, JSON.stringify({ message: 'Invalid username or password' }));
      return true;
    }
    if (caps.browser !== 'chrome' && caps.browser !== 'edge') {
      reject(socket, 400, JSON.stringify({ message: `this fake has no ${String(caps.browser)}` }));
      return true;
    }
    const { 'browserstack.username': _user, 'browserstack.accessKey': _key, ...kept } = caps;
    const session: PlaywrightSession = { id: randomBytes(20).toString('hex'), caps: kept, started: Date.now(), ended: null };
    sessions.push(session);
    void serverFor(caps)
      .then((server) => {
        const target = new URL(server.wsEndpoint());
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host'));
        const upstream = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'GET', headers });
        upstream.on('upgrade', (res, browser: Socket, browserHead: Buffer) => {
          sockets.add(browser);
          joinUpgraded({ socket, head }, { res, socket: browser, head: browserHead }, () => {
            sockets.delete(browser);
            session.ended ??= Date.now();
          });
        });
        upstream.on('response', (res) => reject(socket, res.statusCode ?? 502, '{}'));
        upstream.on('error', () => reject(socket, 502, '{}'));
        upstream.end();
      })
      .catch((error: unknown) => reject(socket, 500, JSON.stringify({ message: String(error) })));
    socket.on('close', () => {
      session.ended ??= Date.now();
    });
    return true;
  };

  return {
    sessions,
    refused,
    upgrade,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([...servers.values()].map((s) => s.then((x) => x.close()).catch(() => undefined)));
    },
  };
}
