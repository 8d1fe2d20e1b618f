import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { TargetGuard } from './target-guard.ts';

/** A browser's every request goes through this proxy, which refuses what the target policy refuses. */
export interface PolicyProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's --proxy-server or Playwright's `proxy.server`. */
  url: string;
  /** URLs refused so far (deduplicated), for the run's log. */
  refused: Set<string>;
  close(): Promise<void>;
}

const REFUSED_BODY = 'Refused by the Fullstop target policy';

/**
 * Starts a forward proxy on 127.0.0.1:0. Plain http is forwarded after a check of the full URL; https (and
 * WebSockets) arrive as CONNECT host:port and are tunnelled when an allowed origin has that host and port.
 * Chromium sends loopback traffic through it too when `<-loopback>` is in its bypass list (Playwright adds it).
 */
export async function startPolicyProxy(guard: TargetGuard): Promise<PolicyProxy> {
  const refused = new Set<string>();
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (req, res) => {
    const target = req.url ?? '';
    const reason = await guard.refusal(target);
    if (reason) {
      refused.add(target);
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`${REFUSED_BODY}: ${reason}`);
      return;
    }
    const url = new URL(target);
    const upstream = httpRequest(
      { host: url.hostname, port: url.port || 80, method: req.method, path: `${url.pathname}${url.search}`, headers: stripProxyHeaders(req) },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        upstreamRes.pipe(res);
      },
    );
    upstream.on('error', () => res.headersSent ? res.destroy() : res.writeHead(502).end());
    req.pipe(upstream);
  });

  server.on('connect', async (req: IncomingMessage, clientSocket: Socket, head: Buffer) => {
    const hostPort = req.url ?? '';
    const [host = '', port = '443'] = splitHostPort(hostPort);
    const candidates = [`https://${host}:${port}/`, `http://${host}:${port}/`];
    const verdicts = await Promise.all(candidates.map((c) => guard.refusal(c)));
    if (verdicts.every((v) => v !== null)) {
      refused.add(hostPort);
      clientSocket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = connect(Number(port), host.replace(/^\[|\]$/g, ''), () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    const closeBoth = () => {
      upstream.destroy();
      clientSocket.destroy();
    };
    upstream.on('error', closeBoth);
    clientSocket.on('error', closeBoth);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
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
