import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getCACertificates, setDefaultCACertificates, type TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityChecksRunner } from '../src/runners/security-checks/index.ts';
import { PUBLIC_LOOPBACK, rebindingNetwork } from './fixtures/rebinding.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

const openssl = (args: string[]) => promisify(execFile)('openssl', args);
const TLS_CHECK = 'The website is served over HTTPS with a valid certificate';

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe('security-checks over https', () => {
  let server: Server;
  let url: string;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fullstop-tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    await openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1']);
    server = createServer({ key: await readFile(key), cert: await readFile(cert) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'sid=1; HttpOnly; SameSite=Lax' }).end('<h1>tls</h1>');
    });
    url = `https://127.0.0.1:${await listen(server, '127.0.0.1')}`;
  });
  afterAll(async () => {
    await closeServer(server);
    await rm(dir, { recursive: true, force: true });
  });

  it('fails a self-signed certificate with the reason', async () => {
    const result = await securityChecksRunner.run(testOf('security-checks', {}), localTarget(url), await makeContext());
    if (result.summary.kind !== 'security-checks') throw new Error('wrong summary');
    expect(result.summary.cases[0]).toMatchObject({ name: TLS_CHECK, status: 'failed', error: expect.stringMatching(/^fetch failed: self-signed certificate/) });
    expect(result.status).toBe('failed');
  });
});

/**
 * A name pinned to an address keeps TLS whole: SNI is the name, and the certificate is checked against the name,
 * not the address. A private CA is trusted for this file only (tls.setDefaultCACertificates).
 */
describe('https to a pinned address', () => {
  let server: Server;
  let port: number;
  let dir: string;
  const serverNames: (string | false)[] = [];
  const defaultCAs = getCACertificates('default');
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fullstop-tls-pin-'));
    const file = (name: string) => path.join(dir, name);
    await openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '1', '-subj', '/CN=Fullstop test CA']);
    await openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('shop.key'), '-out', file('shop.csr'), '-subj', '/CN=shop.test']);
    await writeFile(file('ext.cnf'), 'subjectAltName=DNS:shop.test\n');
    await openssl(['x509', '-req', '-in', file('shop.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('shop.pem'), '-days', '1', '-extfile', file('ext.cnf')]);
    setDefaultCACertificates([...defaultCAs, await readFile(file('ca.pem'), 'utf8')]);
    server = createServer({ key: await readFile(file('shop.key')), cert: await readFile(file('shop.pem')) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>shop</h1>');
    });
    // servername is set on a server-side socket (SNI), missing from the TLSSocket type.
    server.on('secureConnection', (socket: TLSSocket & { servername?: string | false }) => serverNames.push(socket.servername ?? false));
    port = await listen(server, PUBLIC_LOOPBACK);
  });
  afterAll(async () => {
    setDefaultCACertificates(defaultCAs);
    await closeServer(server);
    await rm(dir, { recursive: true, force: true });
  });

  const target = (host: string) => ({ baseUrl: `https://${host}:${port}/`, allowedOrigins: [], allowPrivateAddresses: false });

  it('sends the name as SNI and accepts the certificate issued for it', async () => {
    serverNames.length = 0;
    const network = rebindingNetwork('shop.test');
    const result = await securityChecksRunner.run(testOf('security-checks', {}), target('shop.test'), await makeContext({ network }));
    if (result.summary.kind !== 'security-checks') throw new Error(result.error);
    expect(result.summary.cases[0]).toMatchObject({ name: TLS_CHECK, status: 'passed' });
    expect(serverNames.length).toBeGreaterThan(0);
    expect(new Set(serverNames)).toEqual(new Set(['shop.test']));
    expect(network.calls).toBe(1);
  });

  it('refuses a certificate issued for another name at the same address', async () => {
    const result = await securityChecksRunner.run(testOf('security-checks', {}), target('other.test'), await makeContext({ network: rebindingNetwork('other.test') }));
    if (result.summary.kind !== 'security-checks') throw new Error(result.error);
    expect(result.summary.cases[0]).toMatchObject({ name: TLS_CHECK, status: 'failed', error: expect.stringContaining("Hostname/IP does not match certificate's altnames") });
  });
});
