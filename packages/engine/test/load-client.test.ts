import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunner } from '../src/runners/load/index.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

/**
 * A raw TCP server answering by path, so the load client meets what http.Server never sends on its own: a close
 * after every response, a body ended by the connection, a request never answered.
 */
function startRawServer(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      let end: number;
      while ((end = pending.indexOf('\r\n\r\n')) >= 0) {
        const head = pending.slice(0, end);
        pending = pending.slice(end + 4);
        requests++;
        const path = head.split(' ')[1];
        if (path === '/close') socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok');
        else if (path === '/until-close') socket.end('HTTP/1.1 200 OK\r\n\r\nbody until the end');
        else if (path === '/hang') continue;
        else socket.write('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests: () => requests,
        close: () => {
          for (const s of sockets) s.destroy();
          return new Promise((r) => server.close(() => r()));
        },
      });
    });
  });
}

describe('load client', () => {
  let server: Awaited<ReturnType<typeof startRawServer>>;
  beforeAll(async () => {
    server = await startRawServer();
  });
  afterAll(() => server.close());

  it('reconnects when the server closes after each response, and reads bodies that end with the connection', async () => {
    const result = await loadRunner.run(
      testOf('load', { requests: [{ path: '/close' }, { path: '/until-close' }, { path: '/missing' }], connections: 3, amount: 90 }),
      localTarget(server.url),
      await makeContext(),
    );
    if (result.summary.kind !== 'load') throw new Error(result.error);
    const { load, failuresByUrl } = result.summary;
    expect(load.totalRequests).toBe(90);
    expect(load.successfulRequests).toBe(60);
    expect(failuresByUrl).toEqual([{ url: `${server.url}/missing`, status: 404, count: 30 }]);
    expect(load.dataReceivedBytes).toBeGreaterThan(60 * 'HTTP/1.1 200 OK\r\n\r\n'.length);
  });

  it('counts a request left unanswered past the timeout as a failure of its URL', async () => {
    const started = Date.now();
    const result = await loadRunner.run(
      testOf('load', { requests: [{ path: '/hang' }], connections: 2, amount: 4, timeoutSeconds: 0.2 }),
      localTarget(server.url),
      await makeContext(),
    );
    if (result.summary.kind !== 'load') throw new Error(result.error);
    expect(result.summary.load).toMatchObject({ totalRequests: 4, failedRequestsCount: 4, failedRequestsRate: 100 });
    expect(result.summary.failuresByUrl).toEqual([{ url: `${server.url}/hang`, status: 'error', count: 4 }]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('counts refused connections as errors of the URL asked for', async () => {
    const closed = await startRawServer();
    await closed.close();
    const result = await loadRunner.run(testOf('load', { requests: [{ path: '/x' }], connections: 2, amount: 10 }), localTarget(closed.url), await makeContext());
    if (result.summary.kind !== 'load') throw new Error(result.error);
    expect(result.summary.load).toMatchObject({ totalRequests: 10, failedRequestsCount: 10, successfulRequests: 0 });
    expect(result.summary.failuresByUrl).toEqual([{ url: `${closed.url}/x`, status: 'error', count: 10 }]);
  });

  it('loads an https site (self-signed is fine here) and sends each request body with its length', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fullstop-load-tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    await promisify(execFile)('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1']);
    const bodies: string[] = [];
    const https = createHttpsServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        bodies.push(`${req.method} ${body}`);
        res.end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
    try {
      const { port } = https.address() as { port: number };
      const result = await loadRunner.run(
        testOf('load', { requests: [{ path: '/login', method: 'POST', body: '{"user":"a"}', headers: { 'content-type': 'application/json' } }], connections: 2, amount: 20 }),
        localTarget(`https://127.0.0.1:${port}/`),
        await makeContext(),
      );
      if (result.summary.kind !== 'load') throw new Error(result.error);
      expect(result.summary.load).toMatchObject({ totalRequests: 20, successfulRequests: 20 });
      expect(bodies).toHaveLength(20);
      expect(new Set(bodies)).toEqual(new Set(['POST {"user":"a"}']));
    } finally {
      https.closeAllConnections();
      await new Promise((r) => https.close(r));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
