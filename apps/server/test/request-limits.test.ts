import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from '../src/config/env.ts';
import { fakeRunners } from './engine/fixtures/fake-runners.ts';
import { clientWithSuite, OPERATOR_TOKEN } from './engine/helpers.ts';
import { buildTestApp, type TestClient } from './helpers/app.ts';

/** Opens a raw connection, sends `head` (and then each of `drip` every `dripMs`), and measures when the server closes it. */
function closedAfter(port: number, head: string, drip: { chunk: string; everyMs: number } | null = null): Promise<{ ms: number; reply: string }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let reply = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    const timer = drip ? setInterval(() => !socket.destroyed && socket.write(drip.chunk), drip.everyMs) : undefined;
    socket.on('data', (d) => (reply += d.toString()));
    socket.on('error', () => {}); // a reset is one of the ways the server may close it
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ ms: Date.now() - started, reply });
    });
    setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept the connection open for 20 s'));
    }, 20_000).unref();
  });
}

describe('a stalled or slow request is closed by the server in the configured time', () => {
  let app: FastifyInstance;
  let port: number;
  let c: TestClient;
  beforeAll(async () => {
    app = await buildTestApp({
      env: { OPERATOR_TOKEN, HTTP_HEADERS_TIMEOUT: 1, HTTP_IDLE_TIMEOUT: 1, HTTP_REQUEST_TIMEOUT: 3, HTTP_UPLOAD_TIMEOUT: 6, HTTP_KEEP_ALIVE_TIMEOUT: 2 },
      runners: fakeRunners,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
    c = await clientWithSuite(app, { G: [{ name: 'slow', kind: 'api' }] });
  });
  afterAll(async () => app?.close());

  it('sets Node’s own limits explicitly', () => {
    expect(app.server.headersTimeout).toBe(1000);
    expect(app.server.requestTimeout).toBe(6000);
    expect(app.server.keepAliveTimeout).toBe(2000);
  });

  it('drops a JSON body that stops arriving after the idle time', async () => {
    const head = `POST /requests HTTP/1.1\r\nHost: x\r\nx-api-key: ${c.apiKey}\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{"kind":"retest",`;
    const { ms } = await closedAfter(port, head);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(2500);
  });

  it('drops a stalled multipart upload after the idle time, long before the upload deadline', async () => {
    const head = `POST /upload/android/${c.clientId} HTTP/1.1\r\nHost: x\r\nx-api-key: ${c.apiKey}\r\ncontent-type: multipart/form-data; boundary=b\r\ncontent-length: 100000000\r\n\r\n--b\r\ncontent-disposition: form-data; name="file"; filename="a.apk"\r\ncontent-type: application/octet-stream\r\n\r\nPK`;
    const { ms } = await closedAfter(port, head);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(2500);
  });

  it('drops a body that trickles in (never idle) at the request deadline', async () => {
    const head = `POST /requests HTTP/1.1\r\nHost: x\r\nx-api-key: ${c.apiKey}\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{"details":"`;
    const { ms } = await closedAfter(port, head, { chunk: 'x', everyMs: 300 });
    expect(ms).toBeGreaterThanOrEqual(2900);
    expect(ms).toBeLessThan(4500);
  });

  it('closes a connection whose headers never end', async () => {
    const { ms, reply } = await closedAfter(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
    expect(ms).toBeLessThan(2500);
    expect(reply === '' || reply.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('lets a complete request wait silently for its answer (run ?wait=true) past the idle time', async () => {
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${port}/test/run/slow?wait=true&timeout=2`, { headers: { 'x-api-key': c.apiKey } });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    await res.json();
  });

  it('refuses bad limit settings at start-up, naming the variable', () => {
    expect(() => loadEnv({ HTTP_IDLE_TIMEOUT: 'soon' })).toThrow(ConfigError);
    expect(() => loadEnv({ HTTP_REQUEST_TIMEOUT: '0' })).toThrow(/HTTP_REQUEST_TIMEOUT/);
    expect(() => loadEnv({ EVENT_STREAMS_PER_CREDENTIAL: '-1' })).toThrow(/EVENT_STREAMS_PER_CREDENTIAL/);
    const defaults = loadEnv({});
    expect(defaults).toMatchObject({ HTTP_HEADERS_TIMEOUT: 30, HTTP_REQUEST_TIMEOUT: 120, HTTP_UPLOAD_TIMEOUT: 3600, HTTP_IDLE_TIMEOUT: 30, EVENT_STREAMS_PER_CREDENTIAL: 5 });
  });
});
