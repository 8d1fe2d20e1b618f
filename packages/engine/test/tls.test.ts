import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityChecksRunner } from '../src/runners/security-checks/index.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

describe('security-checks over https', () => {
  let server: Server;
  let url: string;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fullstop-tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    await promisify(execFile)('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1']);
    server = createServer({ key: await readFile(key), cert: await readFile(cert) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'sid=1; HttpOnly; SameSite=Lax' }).end('<h1>tls</h1>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('fails a self-signed certificate with the reason', async () => {
    const result = await securityChecksRunner.run(testOf('security-checks', {}), localTarget(url), await makeContext());
    if (result.summary.kind !== 'security-checks') throw new Error('wrong summary');
    expect(result.summary.cases[0]).toMatchObject({ name: 'The website is served over HTTPS with a valid certificate', status: 'failed', error: expect.stringMatching(/^fetch failed: self-signed certificate/) });
    expect(result.status).toBe('failed');
  });
});
