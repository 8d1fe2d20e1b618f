import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from '../src/config/env.ts';
import { trustProxySetting } from '../src/config/trust-proxy.ts';
import { auditEvents } from '../src/db/schema/index.ts';
import { buildTestApp, createTestClient } from './helpers/app.ts';

const DEPLOY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../deploy');
const read = (file: string) => readFileSync(path.join(DEPLOY, file), 'utf8');
const NGINX = '/usr/sbin/nginx';
const FORGED = ['203.0.113.7', '198.51.100.23', '192.0.2.200'];

/** What deploy/ sets TRUST_PROXY to, and the address nginx connects to the API from there. */
const deployments = [
  { where: 'compose.yaml', setting: /^\s+TRUST_PROXY: "([^"]+)"$/m.exec(read('compose.yaml'))?.[1], peer: '172.18.0.9' },
  { where: 'systemd/fullstop-api@.service', setting: /^Environment=TRUST_PROXY=(.+)$/m.exec(read('systemd/fullstop-api@.service'))?.[1], peer: '127.0.0.1' },
];

/** The X-Forwarded-For nginx sends upstream for a caller at `peer` who wrote `forged`, by deploy/nginx.conf's own line. */
function forwardedBy(conf: string, forged: string, peer: string): string {
  const value = /^\s*proxy_set_header X-Forwarded-For (\S+);/m.exec(conf)?.[1];
  if (value === '$remote_addr') return peer;
  if (value === '$proxy_add_x_forwarded_for') return `${forged}, ${peer}`;
  throw new Error(`deploy/nginx.conf forwards X-Forwarded-For as ${value}: teach this test what that sends`);
}

const appTrusting = (setting: string | undefined) =>
  buildTestApp({ env: { TRUST_PROXY: trustProxySetting.parse(setting), LOGIN_MAX_FAILURES_PER_ADDRESS: 2 } });

const auditedAddresses = async (app: FastifyInstance) =>
  (await app.db.select({ address: auditEvents.address }).from(auditEvents).where(eq(auditEvents.type, 'login.failure'))).map((r) => r.address);

describe('TRUST_PROXY: a hop count or the proxies\u2019 addresses', () => {
  it('trusts nobody unless told, and takes a count or a list', () => {
    expect(loadEnv({}).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,loopback' }).TRUST_PROXY).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'loopback']);
  });

  it('refuses true (the caller\u2019s own left-most value) and anything not an address, naming the variable', () => {
    expect(() => loadEnv({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadEnv({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: true would trust/);
    for (const bad of ['nginx', '10.0.0.0/33', '127.0.0.1,,x', '1.2.3.4/8/1']) expect(() => loadEnv({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
  });
});

describe('a forged X-Forwarded-For through deploy/nginx.conf changes neither the throttle key nor the audited address', () => {
  const conf = read('nginx.conf');

  for (const { where, setting, peer } of deployments) {
    it(`as ${where} sets it (TRUST_PROXY=${setting}), with the header nginx forwards`, async () => {
      expect(setting, `${where} sets TRUST_PROXY`).toBeTruthy();
      const app = await appTrusting(setting);
      try {
        const answers = [];
        for (const forged of FORGED) {
          const c = await createTestClient(app);
          const res = await app.inject({
            method: 'POST',
            url: '/auth/login',
            payload: { email: c.email, password: 'not the password' },
            remoteAddress: peer,
            headers: { 'x-forwarded-for': forwardedBy(conf, forged, peer) },
          });
          answers.push(res.statusCode);
        }
        // Three callers' worth of forged addresses are one address (nginx's peer): over its limit of 2.
        expect(answers).toEqual([401, 401, 429]);
        expect(await auditedAddresses(app)).toEqual([peer, peer]);
      } finally {
        await app.close();
      }
    });
  }
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** deploy/nginx.conf as it is, but for its upstream (the API under test) and its port; run in the foreground. */
async function startNginx(apiPort: number): Promise<{ url: string; stop: () => void }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-nginx-'));
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, sub));
  const port = await freePort();
  const server = read('nginx.conf')
    .replace(/upstream fullstop_api \{[^}]*\}/, `upstream fullstop_api { server 127.0.0.1:${apiPort}; keepalive 4; }`)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  expect(server).toContain(`127.0.0.1:${apiPort}`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t === 'client_body' ? 'body' : t};`).join(' ');
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `daemon off; master_process off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;\nevents {}\nhttp { access_log off; ${temp}\n${server}\n}\n`,
  );
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`], { stdio: 'ignore' });
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i += 1) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(s.end() && true)).on('error', () => resolve(false));
    });
    if (up) return { url: `http://127.0.0.1:${port}`, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  const log = readFileSync(path.join(dir, 'error.log'), 'utf8');
  stop();
  throw new Error(`nginx did not start: ${log}`);
}

// The real proxy, where installed (Debian: nginx-light; .ci/run installs it). Without it the tests above still
// hold the server to the header the config's own line makes.
describe.skipIf(!existsSync(NGINX))('through a running nginx with deploy/nginx.conf', () => {
  for (const { where, setting } of deployments) {
    it(`a caller writing X-Forwarded-For is still counted and audited as nginx's peer (TRUST_PROXY=${setting}, ${where})`, async () => {
      const app = await appTrusting(setting);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const nginx = await startNginx((app.server.address() as net.AddressInfo).port);
      try {
        const answers = [];
        for (const forged of FORGED) {
          const c = await createTestClient(app);
          const res = await fetch(`${nginx.url}/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
            body: JSON.stringify({ email: c.email, password: 'not the password' }),
          });
          answers.push(res.status);
        }
        expect(answers).toEqual([401, 401, 429]);
        expect(await auditedAddresses(app)).toEqual(['127.0.0.1', '127.0.0.1']);
      } finally {
        nginx.stop();
        await app.close();
      }
    });
  }
});
