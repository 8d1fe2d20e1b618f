import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { outboundRequest, OutboundUnreachableError } from './outbound-http.ts';

// A receiver that answers at once, then trickles its body a byte at a time: never silent long, never done.
let server: http.Server | null = null;

async function trickler(opts: { headersAfterMs?: number; everyMs: number; bytes: number }): Promise<string> {
  server = http.createServer((_req, res) => {
    const start = () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(' ');
        if (++sent >= opts.bytes) {
          clearInterval(timer);
          res.end('{}');
        }
      }, opts.everyMs);
      res.on('close', () => clearInterval(timer));
    };
    if (opts.headersAfterMs) setTimeout(start, opts.headersAfterMs);
    else start();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  server = null;
});

describe('outboundRequest: a deadline on the whole call', () => {
  it('ends a call whose body trickles past the deadline, though the receiver is never silent for long', async () => {
    // A byte every 100 ms for 4 s: the old limit (15 s of silence, here never reached) let it run to its end.
    const url = await trickler({ everyMs: 100, bytes: 40 });
    const started = Date.now();
    const call = outboundRequest(url, { method: 'POST', body: '{}', allowPrivate: true, deadlineMs: 1000 });
    await expect(call).rejects.toBeInstanceOf(OutboundUnreachableError);
    await expect(call).rejects.toThrow('no complete answer within 1 s');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('counts the wait for the headers in the same deadline', async () => {
    const url = await trickler({ headersAfterMs: 3000, everyMs: 10, bytes: 1 });
    const started = Date.now();
    await expect(outboundRequest(url, { method: 'GET', allowPrivate: true, deadlineMs: 800 })).rejects.toThrow('no complete answer within 0.8 s');
    expect(Date.now() - started).toBeLessThan(1800);
  });

  it('answers a call that completes within the deadline', async () => {
    const url = await trickler({ everyMs: 10, bytes: 5 });
    const res = await outboundRequest(url, { method: 'GET', allowPrivate: true, deadlineMs: 2000 });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({});
  });
});
