import { rm } from 'node:fs/promises';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import type { Duplex, Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Network, NETWORK_SHAPES, type NetworkShape } from './network-profiles.ts';
import { ShapedStream } from './shaper.ts';
import type { TargetGuard } from './target-guard.ts';
import { privateSocketDir } from '../sandbox/net-jail.ts';

/** A browser's every request goes through this proxy, which refuses what the target policy refuses. */
export interface PolicyProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's --proxy-server, Playwright's `proxy.server` or wapiti's --proxy. */
  url: string;
  /**
   * The same proxy on a Unix socket, in a private folder of this process's user (0700), for a jailed process's
   * forwarder (sandbox/net-jail.ts): the only way out of its network namespace. The folder is the proxy's: a
   * launcher may put a file of its own there (the jailed Chromium's wrapper); it goes on close.
   */
  socketPath: string;
  /** URLs refused so far (deduplicated), for the run's log. */
  refused: Set<string>;
  /** Client and upstream errors swallowed so far (resets, timeouts): each ended its own connection only. */
  readonly socketErrors: number;
  close(): Promise<void>;
}

export const REFUSED_BODY = 'Refused by the Fullstop target policy';
/** An upstream that has not connected by then answers 502 (CONNECT) or fails the request. */
export const UPSTREAM_CONNECT_TIMEOUT_MS = 15_000;
/** Kept small: refused and reset requests must not pile up state. */
const MAX_REFUSED_KEPT = 1_000;

/**
 * Starts a forward proxy on 127.0.0.1:0, and on a Unix socket (`socketPath`) with the same handler. Plain http is
 * forwarded after a check of the full URL; https (and WebSockets) arrive as CONNECT host:port and are tunnelled when
 * an allowed origin has that host and port.
 * Upstream connections resolve names only through the guard's pinned lookup: the address judged is the one
 * connected to. Every socket, request and response gets its `error` listener the moment it exists (before any
 * await): a browser that resets a connection ends that connection, never the process.
 * Chromium sends loopback traffic through it too when `<-loopback>` is in its bypass list (Playwright adds it).
 */
export async function startPolicyProxy(guard: TargetGuard, opts: { network?: Network } = {}): Promise<PolicyProxy> {
  const profile = NETWORK_SHAPES[opts.network ?? 'none'];
  const offline = profile === 'offline';
  const shape = profile === 'offline' ? null : profile;
  const refused = new Set<string>();
  const sockets = new Set<Duplex>();
  let socketErrors = 0;
  const countError = () => {
    socketErrors++;
  };
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const refuse = (what: string) => {
    if (refused.size < MAX_REFUSED_KEPT) refused.add(what);
  };
  const agent = new Agent({ keepAlive: true, lookup: guard.lookup });

  const server: Server = createServer((req, res) => {
    req.on('error', countError);
    res.on('error', countError);
    forwardHttp(req, res).catch(() => res.destroy());
  });

  const forwardHttp = async (req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '';
    const reason = await guard.refusal(target);
    if (res.destroyed) return;
    if (reason) {
      refuse(target);
      res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' }).end(`${REFUSED_BODY}: ${reason}`);
      return;
    }
    const url = new URL(target);
    if (url.protocol !== 'http:') {
      // An https URL sent in the clear would be forwarded to port 80: another origin than the one checked.
      res.writeHead(400, { 'content-type': 'text/plain', connection: 'close' }).end('Use CONNECT for https');
      return;
    }
    // The request's round trip to the server, before it is forwarded.
    if (shape) await sleep(shape.rttMs);
    if (res.destroyed) return;
    const upstream = httpRequest({
      agent,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || 80,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: stripProxyHeaders(req),
    });
    upstream.on('error', () => {
      countError();
      if (res.headersSent || res.destroyed) res.destroy();
      else res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' }).end('Bad gateway');
    });
    upstream.on('response', (upstreamRes) => {
      upstreamRes.on('error', () => {
        countError();
        res.destroy();
      });
      if (res.destroyed) {
        upstreamRes.destroy();
        return;
      }
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      pipeShaped(upstreamRes, res, shape?.downBps, 0);
    });
    // The browser went away: stop the upstream exchange too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    pipeShaped(req, upstream, shape?.upBps, 0);
  };

  server.on('connect', (req: IncomingMessage, clientSocket: Duplex, head: Buffer) => {
    clientSocket.on('error', countError);
    track(clientSocket);
    tunnel(req.url ?? '', clientSocket, head).catch(() => clientSocket.destroy());
  });

  // A plain-http WebSocket (or other upgrade) sent as an absolute URL: checked like a request, then tunnelled.
  server.on('upgrade', (req: IncomingMessage, clientSocket: Duplex, head: Buffer) => {
    clientSocket.on('error', countError);
    track(clientSocket);
    upgrade(req, clientSocket, head).catch(() => clientSocket.destroy());
  });

  server.on('clientError', (_error, socket: Duplex) => {
    countError();
    if (socket.writable && !socket.destroyed) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  server.on('connection', (socket: Socket) => {
    // Offline: every connection is reset at once, so the browser sees a network error, not a page. A Unix socket
    // has no reset: it is closed (the jail's forwarder then closes the browser's connection unanswered).
    if (offline) {
      socket.on('error', () => {});
      try {
        socket.resetAndDestroy();
      } catch {
        socket.destroy();
      }
      return;
    }
    track(socket);
  });

  // The Unix socket: each connection handed to the HTTP server as if it had arrived on the TCP port, half-open like
  // the HTTP server's own sockets (a client's end must not close the socket before a shaped link has delivered what
  // it sent last, a WebSocket's close frame).
  const unixServer = createNetServer({ allowHalfOpen: true }, (socket) => {
    socket.on('error', countError);
    server.emit('connection', socket);
  });
  unixServer.on('error', countError);

  const tunnel = async (hostPort: string, clientSocket: Duplex, head: Buffer) => {
    const [host, port] = splitHostPort(hostPort);
    const candidates = [`https://${host}:${port}/`, `http://${host}:${port}/`];
    const verdicts = await Promise.all(candidates.map((c) => guard.refusal(c)));
    if (clientSocket.destroyed) return;
    if (verdicts.every((v) => v !== null)) {
      refuse(hostPort);
      clientSocket.end('HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n');
      return;
    }
    const upstream = openUpstream(host, port);
    let connected = false;
    upstream.on('error', () => {
      countError();
      if (!connected && clientSocket.writable) clientSocket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
      else clientSocket.destroy();
    });
    clientSocket.on('close', () => upstream.destroy());
    upstream.on('close', () => {
      if (connected && !drainsShaped(upstream)) clientSocket.destroy();
    });
    upstream.once('connect', () => {
      connected = true;
      upstream.setTimeout(0);
      const open = () => {
        if (clientSocket.destroyed || upstream.destroyed) return;
        clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        pipeBothWays(upstream, clientSocket, shape);
      };
      // Shaped: the TCP handshake's round trip first, then every chunk half of it each way.
      if (shape) void sleep(shape.rttMs).then(open);
      else open();
    });
  };

  const upgrade = async (req: IncomingMessage, clientSocket: Duplex, head: Buffer) => {
    const target = req.url ?? '';
    const reason = await guard.refusal(target);
    if (clientSocket.destroyed) return;
    const url = reason ? null : new URL(target);
    if (!url || url.protocol !== 'http:') {
      refuse(target);
      clientSocket.end('HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n');
      return;
    }
    const upstream = openUpstream(url.hostname, url.port || '80');
    upstream.on('error', () => {
      countError();
      clientSocket.destroy();
    });
    clientSocket.on('close', () => upstream.destroy());
    upstream.on('close', () => {
      if (!drainsShaped(upstream)) clientSocket.destroy();
    });
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      const headers = stripProxyHeaders(req);
      const lines = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i] ?? '';
        if (name.toLowerCase() in headers) lines.push(`${name}: ${req.rawHeaders[i + 1] ?? ''}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      pipeBothWays(upstream, clientSocket, shape);
    });
  };

  /**
   * Whether an upstream that closed has ended cleanly into a shaped link: the link still holds what the browser
   * has yet to receive, and ends the browser's side itself once it has delivered it.
   */
  const drainsShaped = (upstream: Socket) => shape !== null && upstream.readableEnded;

  /** A TCP connection to a pinned address of `host` (the guard's lookup answers only with approved addresses). */
  const openUpstream = (host: string, port: string): Socket => {
    const upstream = connect({ host: host.replace(/^\[|\]$/g, ''), port: Number(port), lookup: guard.lookup, timeout: UPSTREAM_CONNECT_TIMEOUT_MS });
    track(upstream);
    upstream.on('timeout', () => upstream.destroy(new Error('upstream connect timeout')));
    return upstream;
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const socketDir = await privateSocketDir('fullstop-proxy-');
  const socketPath = path.join(socketDir, 'proxy.sock');
  try {
    await new Promise<void>((resolve, reject) => {
      unixServer.once('error', reject);
      unixServer.listen(socketPath, () => {
        unixServer.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    server.close();
    agent.destroy();
    await rm(socketDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    socketPath,
    refused,
    get socketErrors() {
      return socketErrors;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), new Promise<void>((resolve) => unixServer.close(() => resolve()))]);
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}

/** `from` into `to`, through a shaped link when there is a rate; the link goes when either end does. */
function pipeShaped(from: Readable, to: Writable, bps: number | undefined, delayMs: number): void {
  if (!bps) {
    from.pipe(to);
    return;
  }
  const link = new ShapedStream(bps, delayMs);
  to.once('close', () => link.destroy());
  from.once('close', () => {
    if (!from.readableEnded) link.destroy();
  });
  from.pipe(link).pipe(to);
}

/** A tunnel's two directions, each shaped with its rate and half the round trip. */
function pipeBothWays(upstream: Duplex, client: Duplex, shape: NetworkShape | null): void {
  pipeShaped(upstream, client, shape?.downBps, (shape?.rttMs ?? 0) / 2);
  pipeShaped(client, upstream, shape?.upBps, (shape?.rttMs ?? 0) / 2);
}

function splitHostPort(hostPort: string): [string, string] {
  const ipv6 = /^\[([^\]]+)\]:(\d+)$/.exec(hostPort);
  if (ipv6) return [`[${ipv6[1]}]`, ipv6[2] ?? '443'];
  const i = hostPort.lastIndexOf(':');
  return i < 0 ? [hostPort, '443'] : [hostPort.slice(0, i), hostPort.slice(i + 1)];
}

function stripProxyHeaders(req: IncomingMessage): IncomingMessage['headers'] {
  const headers = { ...req.headers };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  return headers;
}
