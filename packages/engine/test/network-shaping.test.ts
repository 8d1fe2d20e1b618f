import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORK_SHAPES } from '../src/policy/network-profiles.ts';
import { type PolicyProxy, startPolicyProxy } from '../src/policy/policy-proxy.ts';
import { createTargetGuard } from '../src/policy/target-guard.ts';
import { proxiedGet, tunnelledGet } from './fixtures/proxy-client.ts';
import { localTarget } from './helpers.ts';

const BODY_BYTES = 100 * 1024;

/** A server with a 100 KiB page, and an echo behind an upgrade (a WebSocket as the proxy sees one: bytes after a 101). */
function startEchoServer(): Promise<{ server: Server; url: string; port: number }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(BODY_BYTES, 1));
  });
  server.on('upgrade', (_req, socket: Socket) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
    socket.pipe(socket);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}`, port });
    }),
  );
}

/** Milliseconds from a message sent on an upgraded connection through the proxy to its echo. */
function echoRoundTrip(proxyUrl: string, targetUrl: string): Promise<number> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(proxy.port), proxy.hostname, () => {
      socket.write(`GET ${targetUrl}/echo HTTP/1.1\r\nHost: ${new URL(targetUrl).host}\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n`);
    });
    let seen = '';
    let sentAt = 0;
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      if (!sentAt && seen.includes('\r\n\r\n')) {
        seen = '';
        sentAt = performance.now();
        socket.write('ping');
      } else if (sentAt && seen.includes('ping')) {
        resolve(performance.now() - sentAt);
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
}

describe('networks shaped in the policy proxy', () => {
  let site: Awaited<ReturnType<typeof startEchoServer>>;
  const proxies: PolicyProxy[] = [];
  const proxyOn = async (network: Parameters<typeof startPolicyProxy>[1]) => {
    const proxy = await startPolicyProxy(createTargetGuard(localTarget(site.url)), network);
    proxies.push(proxy);
    return proxy;
  };
  beforeAll(async () => {
    site = await startEchoServer();
  });
  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
    site.server.close();
  });

  it('slows a page to the profile: 100 KiB on fast 3G takes its round trip plus 0.5 s, unshaped a few ms', async () => {
    const plain = await proxyOn({});
    let start = performance.now();
    expect((await proxiedGet(plain.url, `${site.url}/`)).body.length).toBe(BODY_BYTES);
    const unshaped = performance.now() - start;
    const fast3g = await proxyOn({ network: 'fast-3g' });
    start = performance.now();
    expect((await proxiedGet(fast3g.url, `${site.url}/`)).body.length).toBe(BODY_BYTES);
    const shaped = performance.now() - start;
    const shape = NETWORK_SHAPES['fast-3g'] as { downBps: number; rttMs: number };
    const expected = shape.rttMs + ((BODY_BYTES * 8) / shape.downBps) * 1000;
    expect(unshaped).toBeLessThan(200);
    expect(shaped).toBeGreaterThan(expected * 0.8);
    expect(shaped).toBeLessThan(expected * 1.2 + 100);
  });

  it('shapes a CONNECT tunnel (https, wss): the round trip of the handshake, then of the request, and the rate', async () => {
    const fast3g = await proxyOn({ network: 'fast-3g' });
    const start = performance.now();
    const { connectStatus, response } = await tunnelledGet(fast3g.url, `127.0.0.1:${site.port}`);
    const took = performance.now() - start;
    expect(connectStatus).toBe(200);
    expect(response).toContain('200 OK');
    expect(response.length).toBeGreaterThan(BODY_BYTES);
    const shape = NETWORK_SHAPES['fast-3g'] as { downBps: number; rttMs: number };
    const expected = 2 * shape.rttMs + ((BODY_BYTES * 8) / shape.downBps) * 1000;
    expect(took).toBeGreaterThan(expected * 0.8);
    expect(took).toBeLessThan(expected * 1.2 + 100);
  });

  it('delays a WebSocket echo by the round trip', async () => {
    const plain = await proxyOn({});
    expect(await echoRoundTrip(plain.url, site.url)).toBeLessThan(50);
    const slow3g = await proxyOn({ network: 'slow-3g' });
    const rtt = (NETWORK_SHAPES['slow-3g'] as { rttMs: number }).rttMs;
    const echo = await echoRoundTrip(slow3g.url, site.url);
    expect(echo).toBeGreaterThan(rtt * 0.95);
    expect(echo).toBeLessThan(rtt * 1.5);
  });

  it('offline: the connection is reset, no answer and no request upstream', async () => {
    const offline = await proxyOn({ network: 'offline' });
    let requests = 0;
    site.server.on('request', () => requests++);
    await expect(proxiedGet(offline.url, `${site.url}/`)).rejects.toThrow(/ECONNRESET|socket hang up/);
    expect(requests).toBe(0);
  });
});
