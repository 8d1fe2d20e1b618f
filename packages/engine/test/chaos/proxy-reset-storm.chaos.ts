import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as PolicyProxyModule from '../../src/policy/policy-proxy.ts';
import type { PolicyProxy } from '../../src/policy/policy-proxy.ts';
import { isPrivateAddress } from '../../src/policy/private-address.ts';
import { accessibilityRunner } from '../../src/runners/accessibility/index.ts';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server.ts';
import { proxiedGet, sendAndReset, tunnelledGet } from '../fixtures/proxy-client.ts';
import { makeContext, testOf } from '../helpers.ts';

/**
 * A browser that drops connections must end those connections, never the process. During a real accessibility
 * run (Chromium through the policy proxy, against a local fixture), a storm of CONNECTs and plain-http proxy
 * requests, each reset (RST) a few ms after it is sent, hits the run's own proxy: in the tunnel branch, the 403
 * branch (a host that resolves to a private address), plain http (allowed and refused), upgrades and garbage.
 * Many arrive while the target check is still waiting on DNS, where the old proxy had no error listener yet.
 */
const STORM = { tunnel: 200, refusedConnect: 100, plain: 50, refusedPlain: 50, upgrade: 20, garbage: 20 };
const STORM_BATCH = 40;
const BATCH_GAP_MS = 15;
/** Resolution of the storm's hosts takes this long: the first waves all wait on the pending check. */
const SLOW_DNS_MS = 300;
const SLOW_PAGE_MS = 2_500;

// The run's proxy, as the runner starts it: the storm needs its address.
const proxies = vi.hoisted(() => ({ started: [] as PolicyProxy[], resolveFirst: (_p: PolicyProxy) => undefined as void }));
vi.mock('../../src/policy/policy-proxy.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof PolicyProxyModule>();
  return {
    ...actual,
    startPolicyProxy: async (...args: Parameters<typeof actual.startPolicyProxy>) => {
      const proxy = await actual.startPolicyProxy(...args);
      proxies.started.push(proxy);
      proxies.resolveFirst(proxy);
      return proxy;
    },
  };
});

describe('policy proxy under a reset storm during an accessibility run', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    const page = (title: string) => html(title, `<main><h1>${title}</h1><p>Storm test page.</p></main>`);
    server = await startFixtureServer(
      {
        '/slow': (_req, res) => {
          setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(page('Slow')), SLOW_PAGE_MS);
        },
      },
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end(page('Storm'));
      },
    );
  });
  afterAll(() => server.close());

  it('survives 440 resets, completes the run normally, and keeps serving', async () => {
    const uncaught: unknown[] = [];
    const onFatal = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onFatal);
    process.on('unhandledRejection', onFatal);
    try {
      const port = new URL(server.url).port;
      const site = `site.test:${port}`;
      const cdn = `cdn.test:${port}`;
      const blocked = `blocked.test:${port}`;
      // The fixture listens on 127.0.0.1, which this run treats as public; blocked.test resolves to the
      // metadata address, which it does not.
      const answers: Record<string, string> = { 'site.test': '127.0.0.1', 'cdn.test': '127.0.0.1', 'blocked.test': '169.254.169.254' };
      const network = {
        isPrivate: (address: string) => address !== '127.0.0.1' && isPrivateAddress(address),
        lookup: async (hostname: string): Promise<LookupAddress[]> => {
          const address = answers[hostname];
          if (!address) throw new Error(`ENOTFOUND ${hostname}`);
          if (hostname !== 'site.test') await new Promise((r) => setTimeout(r, SLOW_DNS_MS));
          return [{ address, family: 4 }];
        },
      };
      const proxyStarted = new Promise<PolicyProxy>((resolve) => {
        proxies.resolveFirst = resolve;
      });

      const run = accessibilityRunner.run(
        testOf('accessibility', { pages: ['/', '/slow', '/two', '/slow', '/three'] }),
        { baseUrl: `http://${site}/`, allowedOrigins: [`http://${cdn}`, `http://${blocked}`], allowPrivateAddresses: false },
        await makeContext({ network }),
      );

      const proxy = await proxyStarted;
      const payloads: string[] = [
        ...Array<string>(STORM.tunnel).fill(`CONNECT ${cdn} HTTP/1.1\r\nHost: ${cdn}\r\n\r\n`),
        ...Array<string>(STORM.refusedConnect).fill(`CONNECT ${blocked} HTTP/1.1\r\nHost: ${blocked}\r\n\r\n`),
        ...Array<string>(STORM.plain).fill(`GET http://${cdn}/plain HTTP/1.1\r\nHost: ${cdn}\r\n\r\n`),
        ...Array<string>(STORM.refusedPlain).fill(`GET http://${blocked}/plain HTTP/1.1\r\nHost: ${blocked}\r\n\r\n`),
        ...Array<string>(STORM.upgrade).fill(`GET http://${cdn}/ws HTTP/1.1\r\nHost: ${cdn}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`),
        ...Array<string>(STORM.garbage).fill('NOT HTTP AT ALL\r\n\r\n'),
      ];
      // Interleave the kinds so every batch mixes branches.
      const storm = payloads.map((p, i) => ({ p, key: (i * 7919) % payloads.length })).sort((a, b) => a.key - b.key).map((x) => x.p);
      const stormStarted = performance.now();
      const sent: Promise<void>[] = [];
      for (let i = 0; i < storm.length; i += STORM_BATCH) {
        for (const [j, payload] of storm.slice(i, i + STORM_BATCH).entries()) sent.push(sendAndReset(proxy.url, payload, 2 + ((i + j) % 9)));
        await new Promise((r) => setTimeout(r, BATCH_GAP_MS));
      }
      await Promise.all(sent);
      const stormMs = performance.now() - stormStarted;

      // Still serving, while the run is still going (its slow pages hold it open).
      expect(proxies.started).toContain(proxy);
      const tunnel = await tunnelledGet(proxy.url, cdn);
      expect(tunnel.connectStatus).toBe(200);
      expect(tunnel.response).toContain('Storm');
      expect((await proxiedGet(proxy.url, `http://${cdn}/after`)).status).toBe(200);
      expect((await tunnelledGet(proxy.url, blocked)).connectStatus).toBe(403);
      expect((await proxiedGet(proxy.url, `http://${blocked}/after`)).status).toBe(403);

      const result = await run;
      expect(result.error).toBeUndefined();
      expect(result.status).toBe('passed');
      expect(result.totals).toEqual({ totalTests: 5, passedTests: 5, failedTests: 0, skippedTests: 0 });
      expect(uncaught).toEqual([]);
      console.log(
        `reset storm: ${storm.length} connections in ${stormMs.toFixed(0)} ms, ${proxy.socketErrors} socket errors absorbed, ` +
          `refused ${[...proxy.refused].join(', ')}; run ${result.status} in ${result.durationMs.toFixed(0)} ms`,
      );
    } finally {
      process.off('uncaughtException', onFatal);
      process.off('unhandledRejection', onFatal);
    }
  });
});
