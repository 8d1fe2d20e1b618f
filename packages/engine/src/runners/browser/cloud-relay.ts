/**
 * The relay between a cloud cell's spec files and the provider's Playwright endpoint (decision 0106). The spec files
 * are the client's code, jailed: they must never see the provider's user name and key, which BrowserStack takes only
 * in the connection's URL (`?caps=` with `browserstack.username` and `browserstack.accessKey`). So their project
 * connects here (a WebSocket at `/cell/<index>/<token>`, reached from the jail like the policy proxies: a Unix socket
 * forwarded to a port inside), and the relay, in the runner, opens the provider's WebSocket with the cell's
 * capabilities and the key added, at addresses the target policy judged, then carries the frames both ways
 * unchanged. It counts each connection's time (the device minutes we measure ourselves), bounds how many a cell may
 * hold at once, and says a provider's refusal without the key. Before a cell's connection reaches the provider, the
 * cell is admitted (`admit`: the server gives the cell its spec session, or refuses it past the client's cap).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { errorMessage } from '../../lib/result.ts';
import { createTargetGuard } from '../../policy/target-guard.ts';
import { privateSocketDir } from '../../sandbox/net-jail.ts';
import type { RunContext, RunTarget } from '../../types.ts';

/**
 * Joins a WebSocket client whose handshake this server took (`client`) to the server it was relayed to, once that
 * server answered 101 (`upstream`): the answer's head is passed back as it came, then the bytes both ways, unchanged;
 * either side's end ends the other. `onClose`: once, when the upstream's connection is gone.
 */
export function joinUpgraded(client: { socket: Socket; head: Buffer }, upstream: { res: http.IncomingMessage; socket: Socket; head: Buffer }, onClose: () => void): void {
  const lines = ['HTTP/1.1 101 Switching Protocols'];
  for (let i = 0; i < upstream.res.rawHeaders.length; i += 2) lines.push(`${upstream.res.rawHeaders[i]}: ${upstream.res.rawHeaders[i + 1]}`);
  client.socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (upstream.head.length) client.socket.write(upstream.head);
  if (client.head.length) upstream.socket.write(client.head);
  upstream.socket.pipe(client.socket);
  client.socket.pipe(upstream.socket);
  upstream.socket.on('error', () => client.socket.destroy());
  client.socket.on('close', () => upstream.socket.destroy());
  upstream.socket.on('close', () => {
    client.socket.destroy();
    onClose();
  });
}

/** How long the provider may take to answer the WebSocket's handshake (a desktop is found and started). */
export const RELAY_HANDSHAKE_MS = 5 * 60_000;

export interface RelayCell {
  index: number;
  /** The provider's capabilities of the cell, without the user name and key. */
  caps: Record<string, unknown>;
}

export interface CloudRelay {
  /** The relay on 127.0.0.1 (specs that run unjailed connect here). */
  port: number;
  /** The same relay on a Unix socket, for the jail's forward. */
  socketPath: string;
  /** The path a cell's project connects to (its token keeps another local process off it). */
  pathOf(index: number): string;
  /** A cell's connections so far: how many the provider took, their time, and the provider's last refusal (key masked). */
  usage(index: number): { connections: number; ms: number; refused: string | null };
  close(): Promise<void>;
}

export async function startCloudRelay(p: {
  /** The provider's Playwright endpoint (`wss://cdp.browserstack.com/playwright`). */
  endpoint: string;
  username: string;
  accessKey: string;
  cells: readonly RelayCell[];
  /** How many connections a cell may hold at once: one a Playwright worker. */
  perCell: number;
  /**
   * Asked before each of a cell's connections goes to the provider: resolves when the cell may connect, rejects with
   * why not (the connection is refused with those words, and the provider never hears of it).
   */
  admit?: (index: number) => Promise<void>;
  target: RunTarget;
  ctx: RunContext;
}): Promise<CloudRelay> {
  const token = randomBytes(16).toString('hex');
  const byIndex = new Map(p.cells.map((c) => [c.index, { caps: c.caps, open: 0, connections: 0, ms: 0, refused: null as string | null }]));
  const sockets = new Set<Socket>();
  const endpoint = new URL(p.endpoint);
  // The endpoint is an outbound address like the WebDriver hub: judged by the target policy, every connection pinned.
  const httpForm = `${endpoint.protocol === 'wss:' ? 'https:' : 'http:'}//${endpoint.host}${endpoint.pathname}`;
  const guard = createTargetGuard({ baseUrl: httpForm, allowedOrigins: [], allowPrivateAddresses: p.target.allowPrivateAddresses }, p.ctx.network);
  const clean = (text: string) => text.split(p.accessKey).join('••••').split(encodeURIComponent(p.accessKey)).join('••••');
  const refuse = (socket: Socket, status: number, reason: string) => {
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${reason}`);
  };

  const onUpgrade = (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const match = /^\/cell\/(\d+)\/([0-9a-f]+)$/.exec(req.url ?? '');
    const index = Number(match?.[1]);
    const cell = match && match[2] === token ? byIndex.get(index) : undefined;
    if (!cell) return refuse(socket, 404, 'no such cloud cell');
    if (cell.open >= p.perCell) return refuse(socket, 429, `this cloud cell holds ${p.perCell} connection${p.perCell === 1 ? '' : 's'} at most`);
    cell.open += 1;
    let counted = false;
    const started = performance.now();
    const done = () => {
      if (counted) return;
      counted = true;
      cell.open -= 1;
    };
    socket.once('close', done);
    void (async () => {
      try {
        await p.admit?.(index);
      } catch (error) {
        return refuse(socket, 403, errorMessage(error));
      }
      const caps = { ...cell.caps, 'browserstack.username': p.username, 'browserstack.accessKey': p.accessKey };
      const url = new URL(httpForm);
      url.search = `caps=${encodeURIComponent(JSON.stringify(caps))}`;
      await guard.check(url.href);
      await guard.addresses(url.hostname);
      // The handshake's own headers (key, version, Playwright's), never the jail's Host.
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host'));
      const upstream = (url.protocol === 'https:' ? https : http).request(url, { method: 'GET', headers, lookup: guard.lookup as never, timeout: RELAY_HANDSHAKE_MS });
      upstream.on('timeout', () => upstream.destroy(new Error('the provider did not answer the connection in time')));
      upstream.on('response', (res) => {
        cell.refused = `${res.statusCode ?? 0} ${clean(res.statusMessage ?? '')}`.trim();
        p.ctx.log('the provider refused a cloud cell’s Playwright connection', { cell: cell.caps.name, status: res.statusCode });
        res.resume();
        refuse(socket, res.statusCode === 401 || res.statusCode === 403 ? 502 : (res.statusCode ?? 502), `the provider refused the connection (${cell.refused})`);
      });
      upstream.on('upgrade', (res, provider: Socket, providerHead: Buffer) => {
        sockets.add(provider);
        // The handshake's deadline is no idle limit on the session: a test may wait on a page for minutes.
        provider.setTimeout(0);
        cell.connections += 1;
        joinUpgraded({ socket, head }, { res, socket: provider, head: providerHead }, () => {
          sockets.delete(provider);
          cell.ms += performance.now() - started;
        });
      });
      upstream.on('error', (error) => {
        cell.refused = clean(errorMessage(error));
        refuse(socket, 502, `the provider could not be reached: ${cell.refused}`);
      });
      upstream.end();
    })().catch((error: unknown) => {
      cell.refused = clean(errorMessage(error));
      refuse(socket, 502, `the provider’s endpoint is refused: ${cell.refused}`);
    });
  };

  const tcp = http.createServer((_req, res) => res.writeHead(426).end());
  const unix = http.createServer((_req, res) => res.writeHead(426).end());
  tcp.on('upgrade', onUpgrade);
  unix.on('upgrade', onUpgrade);
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const socketDir = await privateSocketDir('fullstop-relay-');
  const socketPath = path.join(socketDir, 'relay.sock');
  await new Promise<void>((resolve, reject) => {
    unix.once('error', reject);
    unix.listen(socketPath, () => resolve());
  });
  return {
    port: (tcp.address() as AddressInfo).port,
    socketPath,
    pathOf: (index) => `/cell/${index}/${token}`,
    usage: (index) => {
      const c = byIndex.get(index);
      return { connections: c?.connections ?? 0, ms: c?.ms ?? 0, refused: c?.refused ?? null };
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([tcp, unix].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}
