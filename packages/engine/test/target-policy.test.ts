import { createServer } from 'node:http';
import { connect as netConnect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetPolicyError } from '../src/errors.ts';
import { embeddedIPv4, isPrivateAddress } from '../src/policy/private-address.ts';
import { startPolicyProxy } from '../src/policy/policy-proxy.ts';
import { createTargetGuard } from '../src/policy/target-guard.ts';
import { apiRunner } from '../src/runners/api/index.ts';
import { runners } from '../src/runners/index.ts';
import { loadRunner } from '../src/runners/load/index.ts';
import { TEST_KINDS, type TestKind } from '../src/types.ts';
import { PRIVATE_LOOPBACK, PUBLIC_LOOPBACK, rebindingNetwork, startTwinServers, treatPublic, type TwinServer } from './fixtures/rebinding.ts';
import { proxiedGet, sendAndReset, tunnelledGet } from './fixtures/proxy-client.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { makeContext, testOf } from './helpers.ts';

const publicTarget = { baseUrl: 'https://203.0.113.10/shop/', allowedOrigins: ['https://198.51.100.7:8443'], allowPrivateAddresses: false };

describe('target policy', () => {
  // [address, private?, why]
  const addressTable: [string, boolean, string][] = [
    ['127.0.0.1', true, 'loopback'],
    ['127.255.255.254', true, 'loopback /8'],
    ['10.1.2.3', true, 'private'],
    ['172.16.0.1', true, 'private'],
    ['172.31.255.255', true, 'private'],
    ['172.32.0.1', false, 'just past 172.16/12'],
    ['192.168.1.1', true, 'private'],
    ['169.254.169.254', true, 'link-local, cloud metadata'],
    ['100.64.0.1', true, 'carrier-grade NAT'],
    ['0.0.0.0', true, 'this network'],
    ['192.0.0.8', true, 'IETF protocol assignments'],
    ['192.88.99.1', true, 'retired 6to4 relay'],
    ['198.18.0.1', true, 'benchmarking'],
    ['224.0.0.1', true, 'multicast'],
    ['240.0.0.1', true, 'reserved'],
    ['255.255.255.255', true, 'broadcast'],
    ['8.8.8.8', false, 'public'],
    ['93.184.216.34', false, 'public'],
    ['203.0.113.10', false, 'documentation: routes nowhere'],
    ['::', true, 'unspecified'],
    ['::1', true, 'loopback'],
    ['0:0:0:0:0:0:0:1', true, 'loopback, long form'],
    ['fe80::1', true, 'link-local'],
    ['fe80::1%eth0', true, 'link-local with a zone'],
    ['fd00::1', true, 'unique local'],
    ['fc00::1', true, 'unique local'],
    ['fec0::1', true, 'retired site-local'],
    ['feff::1', true, 'retired site-local, top of /10'],
    ['ff02::1', true, 'multicast'],
    ['::ffff:127.0.0.1', true, 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', true, 'IPv4-mapped loopback, hex'],
    ['::FFFF:169.254.169.254', true, 'IPv4-mapped metadata, upper case'],
    ['::ffff:8.8.8.8', false, 'IPv4-mapped public'],
    ['::ffff:0:10.0.0.1', true, 'SIIT IPv4-translated private'],
    ['::ffff:0:8.8.8.8', false, 'SIIT IPv4-translated public'],
    ['::127.0.0.1', true, 'IPv4-compatible loopback'],
    ['::a9fe:a9fe', true, 'IPv4-compatible metadata, hex'],
    ['::8.8.8.8', true, 'IPv4-compatible: retired form, refused whole'],
    ['2002:7f00:1::1', true, '6to4 of 127.0.0.1'],
    ['2002:a9fe:a9fe::', true, '6to4 of 169.254.169.254'],
    ['2002:c0a8:101:1::1', true, '6to4 of 192.168.1.1'],
    ['2002:0a00:0001::1', true, '6to4 of 10.0.0.1, zero-padded'],
    ['2002:808:808::1', false, '6to4 of 8.8.8.8'],
    ['64:ff9b::7f00:1', true, 'NAT64 of 127.0.0.1'],
    ['64:ff9b::808:808', true, 'NAT64: refused whole'],
    ['64:ff9b:1::1', true, 'local-use NAT64'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true, 'Teredo: refused whole'],
    ['2001::1', true, 'Teredo prefix'],
    ['2001:2::1', true, 'benchmarking'],
    ['2001:10::1', true, 'retired ORCHID'],
    ['100::1', true, 'discard-only'],
    ['2001:db8::1', false, 'documentation: routes nowhere'],
    ['2606:4700::1111', false, 'public'],
    ['2a00:1450:4001::200e', false, 'public'],
    ['not-an-address', false, 'not an IP: judged after resolution'],
  ];

  it.each(addressTable)('judges %s private: %s (%s)', (address, isPrivate) => {
    expect(isPrivateAddress(address)).toBe(isPrivate);
  });

  it('reads the IPv4 address an IPv6 form delivers to', () => {
    expect(embeddedIPv4('2002:7f00:1::1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::ffff:a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIPv4('::ffff:0:c0a8:101')).toBe('192.168.1.1');
    expect(embeddedIPv4('2606:4700::1111')).toBeNull();
    expect(embeddedIPv4('127.0.0.1')).toBeNull();
  });

  it('allows the website origin and added origins, and nothing else', async () => {
    const guard = createTargetGuard(publicTarget);
    expect((await guard.check('/cart?x=1')).href).toBe('https://203.0.113.10/cart?x=1');
    expect((await guard.check('https://198.51.100.7:8443/api')).href).toBe('https://198.51.100.7:8443/api');
    expect(await guard.refusal('https://198.51.100.7/api')).toBe('origin https://198.51.100.7 is not the target\'s website or an allowed origin');
    expect(await guard.refusal('http://203.0.113.10/')).toContain('is not the target');
    expect(await guard.refusal('file:///etc/passwd')).toBe('protocol file: is not http(s)');
    await expect(guard.check('https://evil.example/')).rejects.toBeInstanceOf(TargetPolicyError);
  });

  it('resolves names before judging them, and lets a demo target through when allowed', async () => {
    const local = createTargetGuard({ baseUrl: 'http://localhost:3000', allowedOrigins: [], allowPrivateAddresses: false });
    expect(await local.refusal('/')).toMatch(/^host localhost resolves to the private address (127\.0\.0\.1|::1)$/);
    const metadata = createTargetGuard({ baseUrl: 'http://169.254.169.254', allowedOrigins: [], allowPrivateAddresses: false });
    expect(await metadata.refusal('/latest/meta-data')).toBe('host 169.254.169.254 resolves to the private address 169.254.169.254');
    const demo = createTargetGuard({ baseUrl: 'http://localhost:3000', allowedOrigins: [], allowPrivateAddresses: true });
    expect(await demo.refusal('/')).toBeNull();
  });

  it('has a runner for every kind, and each network runner refuses a private target before any work', async () => {
    expect(Object.keys(runners).sort()).toEqual([...TEST_KINDS].sort());
    // A mobile UI test's outbound address is its Appium endpoint (a private one here too).
    const target = { baseUrl: 'http://127.0.0.1:9/', allowedOrigins: [], allowPrivateAddresses: false, androidApp: '/builds/app.apk', appium: { url: 'http://127.0.0.1:4723/' } };
    const options: Partial<Record<TestKind, Record<string, unknown>>> = { api: { requests: [{ path: '/' }] }, 'mobile-ui': { specs: '*.spec.ts', platform: 'android' }, payment: { provider: 'stripe' } };
    // The mobile analysis reads files, and a manual case is a tester's: neither reaches the network.
    for (const kind of TEST_KINDS.filter((k) => k !== 'mobile-static' && k !== 'manual')) {
      const test = { name: kind, group: 'g', kind, options: options[kind] ?? {}, suiteDir: tmpdir() };
      const result = await runners[kind].run(test, target, await makeContext());
      expect([kind, result.status, result.errorCode]).toEqual([kind, 'error', 'target_policy']);
    }
  });
});

describe('DNS rebinding: every connection goes to the address the guard approved', () => {
  let twin: TwinServer;
  let origin: string;
  beforeAll(async () => {
    twin = await startTwinServers();
    origin = `http://rebind.test:${twin.port}`;
  });
  afterAll(() => twin.close());
  const strictTarget = (baseUrl: string) => ({ baseUrl, allowedOrigins: [], allowPrivateAddresses: false });

  it('resolves a host once per run and pins its addresses', async () => {
    const network = rebindingNetwork('rebind.test');
    const guard = createTargetGuard(strictTarget(origin), network);
    for (let i = 0; i < 5; i++) expect(await guard.refusal(`/page-${i}`)).toBeNull();
    expect(await guard.addresses('rebind.test')).toEqual([{ address: PUBLIC_LOOPBACK, family: 4 }]);
    const lookupAll = promisify(guard.lookup as (h: string, o: object, cb: (e: Error | null, a: unknown) => void) => void);
    expect(await lookupAll('rebind.test', { all: true })).toEqual([{ address: PUBLIC_LOOPBACK, family: 4 }]);
    await expect(lookupAll('rebind.test', { family: 6 })).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(lookupAll('other.test', {})).rejects.toBeInstanceOf(TargetPolicyError);
    expect(network.calls).toBe(1);
  });

  it('refuses a host whose first answer is private, and one with any private answer', async () => {
    const guard = createTargetGuard(strictTarget(origin), rebindingNetwork('rebind.test', PRIVATE_LOOPBACK, PUBLIC_LOOPBACK));
    expect(await guard.refusal('/')).toBe(`host rebind.test resolves to the private address ${PRIVATE_LOOPBACK}`);
    await expect(guard.addresses('rebind.test')).rejects.toBeInstanceOf(TargetPolicyError);
    const mixed = createTargetGuard(strictTarget(origin), {
      isPrivate: treatPublic(PUBLIC_LOOPBACK),
      lookup: async () => [{ address: PUBLIC_LOOPBACK, family: 4 }, { address: '2002:a9fe:a9fe::1', family: 6 }],
    });
    expect(await mixed.refusal('/')).toBe('host rebind.test resolves to the private address 2002:a9fe:a9fe::1');
  });

  it('guarded fetch (api runner): every request and new connection goes to the first answer', async () => {
    twin.publicHosts.length = 0;
    const network = rebindingNetwork('rebind.test');
    const requests = Array.from({ length: 4 }, (_, i) => ({ name: `r${i}`, path: `/r${i}` }));
    const result = await apiRunner.run(testOf('api', { requests }), strictTarget(origin), await makeContext({ network }));
    expect(result.error).toBeUndefined();
    expect(result.totals).toMatchObject({ totalTests: 4, passedTests: 4 });
    expect(twin.publicHosts).toEqual(Array(4).fill(`rebind.test:${twin.port}`));
    expect(twin.privateHits).toBe(0);
    expect(network.calls).toBe(1);
  });

  it('policy proxy: plain http and CONNECT tunnels go to the first answer', async () => {
    twin.publicHosts.length = 0;
    const network = rebindingNetwork('rebind.test');
    const proxy = await startPolicyProxy(createTargetGuard(strictTarget(origin), network));
    try {
      for (let i = 0; i < 3; i++) {
        const plain = await proxiedGet(proxy.url, `${origin}/plain-${i}`);
        expect(plain.status).toBe(200);
        expect(plain.body).toContain('Public');
        const tunnel = await tunnelledGet(proxy.url, `rebind.test:${twin.port}`);
        expect(tunnel.connectStatus).toBe(200);
        expect(tunnel.response).toContain('Public');
      }
      expect(twin.publicHosts).toHaveLength(6);
      expect(twin.privateHits).toBe(0);
      expect(network.calls).toBe(1);
      // The private answer is refused outright when it comes first.
      const refusing = await startPolicyProxy(createTargetGuard(strictTarget(origin), rebindingNetwork('rebind.test', PRIVATE_LOOPBACK)));
      try {
        expect((await proxiedGet(refusing.url, `${origin}/`)).status).toBe(403);
        expect((await tunnelledGet(refusing.url, `rebind.test:${twin.port}`)).connectStatus).toBe(403);
      } finally {
        await refusing.close();
      }
      expect(twin.privateHits).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('policy proxy: a plain-http upgrade (WebSocket) is tunnelled to the first answer', async () => {
    const echo = createServer((_req, res) => res.end());
    echo.on('upgrade', (req, socket) => {
      socket.on('error', () => undefined);
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Host: ${req.headers.host}\r\n\r\n`);
      socket.pipe(socket);
    });
    await new Promise<void>((resolve) => echo.listen(0, PUBLIC_LOOPBACK, resolve));
    const port = (echo.address() as AddressInfo).port;
    const network = rebindingNetwork('ws.test');
    const proxy = await startPolicyProxy(createTargetGuard(strictTarget(`http://ws.test:${port}`), network));
    try {
      const { port: proxyPort } = new URL(proxy.url);
      const received = await new Promise<string>((resolve, reject) => {
        let text = '';
        const socket = netConnect(Number(proxyPort), '127.0.0.1', () => {
          socket.write(`GET http://ws.test:${port}/ws HTTP/1.1\r\nHost: ws.test:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`);
        });
        socket.setEncoding('utf8').on('data', (c: string) => {
          text += c;
          if (text.includes('\r\n\r\n') && !text.includes('ping')) socket.write('ping');
          if (text.endsWith('ping')) {
            socket.destroy();
            resolve(text);
          }
        });
        socket.on('error', reject);
      });
      expect(received).toMatch(/^HTTP\/1\.1 101 /);
      expect(received).toContain(`X-Host: ws.test:${port}`);
      expect(received.endsWith('ping')).toBe(true);
      expect(network.calls).toBe(1);
    } finally {
      await proxy.close();
      echo.closeAllConnections();
      await new Promise((resolve) => echo.close(resolve));
    }
  });

  it('load runner: autocannon connects to the first answer, with the website Host header', async () => {
    twin.publicHosts.length = 0;
    const network = rebindingNetwork('rebind.test');
    // Every response closes its connection: autocannon reconnects (and would resolve again) for each request.
    const result = await loadRunner.run(testOf('load', { connections: 2, amount: 40 }), strictTarget(origin), await makeContext({ network }));
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'load') throw new Error('wrong summary');
    // autocannon ends an `amount` run early when the server closes every connection; each request it made was
    // on a new connection (more than the 2 it opened first), and every one reached the public answer.
    expect(result.summary.load.failedRequestsCount).toBe(0);
    expect(result.summary.load.successfulRequests).toBe(twin.publicHosts.length);
    expect(twin.publicHosts.length).toBeGreaterThan(10);
    expect(new Set(twin.publicHosts)).toEqual(new Set([`rebind.test:${twin.port}`]));
    expect(twin.privateHits).toBe(0);
    expect(network.calls).toBe(1);
  });
});

describe('policy proxy: a client that resets never takes the process down', () => {
  const twin = serverForSuite(startTwinServers);

  it('survives resets while the target check is pending, in the tunnel, 403, plain http and upgrade branches', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    // A slow resolver holds every request in the await where the old proxy had no error listener yet.
    const slow = (name: string, address: string) => async (hostname: string) => {
      await new Promise((r) => setTimeout(r, 150));
      if (hostname !== name) throw new Error('ENOTFOUND');
      return [{ address, family: 4 }];
    };
    const allowed = await startPolicyProxy(
      createTargetGuard({ baseUrl: `http://slow.test:${twin.port}`, allowedOrigins: [], allowPrivateAddresses: false }, { lookup: slow('slow.test', PUBLIC_LOOPBACK), isPrivate: treatPublic(PUBLIC_LOOPBACK) }),
    );
    const refusing = await startPolicyProxy(
      createTargetGuard({ baseUrl: `http://slow.test:${twin.port}`, allowedOrigins: [], allowPrivateAddresses: false }, { lookup: slow('slow.test', PRIVATE_LOOPBACK) }),
    );
    try {
      const host = `slow.test:${twin.port}`;
      const payloads = [
        `CONNECT ${host} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
        `GET http://${host}/ HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
        `GET http://${host}/ws HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
        'GARBAGE\r\n\r\n',
      ];
      const sends: Promise<void>[] = [];
      for (const proxy of [allowed, refusing]) {
        for (let i = 0; i < 40; i++) sends.push(sendAndReset(proxy.url, payloads[i % payloads.length] ?? '', 2 + (i % 5)));
      }
      await Promise.all(sends);
      await new Promise((r) => setTimeout(r, 400));
      expect(uncaught).toEqual([]);
      // Both still serve.
      expect((await tunnelledGet(allowed.url, host)).response).toContain('Public');
      expect((await proxiedGet(allowed.url, `http://${host}/after`)).status).toBe(200);
      expect((await tunnelledGet(refusing.url, host)).connectStatus).toBe(403);
      expect(allowed.socketErrors + refusing.socketErrors).toBeGreaterThan(0);
    } finally {
      process.off('uncaughtException', onUncaught);
      await allowed.close();
      await refusing.close();
    }
    expect(twin.privateHits).toBe(0);
  });
});

