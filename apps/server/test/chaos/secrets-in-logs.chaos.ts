import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../..');
const PORT = 3161;
const base = `http://127.0.0.1:${PORT}`;
const OPERATOR_TOKEN = `fso_${randomBytes(24).toString('hex')}`;
const SERVER_KEY = randomBytes(32).toString('hex');

/**
 * A real server at the most talkative log level, driven through every call that carries a secret (passwords,
 * access and refresh tokens, API keys, reset and event-stream tokens, the operator token, the server key), some
 * of them wrong on purpose so the error paths log too. Not one of those secrets may appear in its output.
 */
describe('secrets never reach the logs', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-secrets-'));
  const logFile = path.join(dataDir, 'server.log');
  let child: ChildProcess;
  const secrets = new Set<string>([OPERATOR_TOKEN, SERVER_KEY]);

  beforeAll(async () => {
    const log = openSync(logFile, 'a');
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverRoot,
      stdio: ['ignore', log, log],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        LOG_LEVEL: 'trace',
        FULLSTOP_DEMO: '0',
        ENGINE_WORKERS: '0',
        OPERATOR_TOKEN,
        SERVER_KEY,
      },
    });
    const deadline = Date.now() + 60_000;
    while (!(await fetch(`${base}/healthz`).then((r) => r.ok).catch(() => false))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${readFileSync(logFile, 'utf8')}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  });

  afterAll(async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, string> };
  };

  /** The mail is written just after the answer; its body is quoted-printable (soft breaks, =3D for '='). */
  async function resetTokenFromOutbox(outbox: string): Promise<string> {
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      const names = (() => {
        try {
          return readdirSync(outbox);
        } catch {
          return [];
        }
      })();
      const mail = names.map((f) => readFileSync(path.join(outbox, f), 'utf8')).join('\n').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const token = /resetToken=([A-Za-z0-9_%-]+)/.exec(mail)?.[1];
      if (token) return decodeURIComponent(token);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no reset mail in ${outbox}`);
  }

  it('after logins, refreshes, key changes, resets and stream tokens, right and wrong', async () => {
    const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    const password = `first ${randomBytes(8).toString('hex')}`;
    const email = 'secrets@example.test';
    secrets.add(password);
    const created = await call('POST', '/operator/clients', { name: 'Secrets Co', website: 'https://secrets.example', email, password }, operator);
    expect(created.status).toBe(201);
    const clientId = created.json.clientId!;

    const wrong = `wrong ${randomBytes(8).toString('hex')}`;
    secrets.add(wrong);
    expect((await call('POST', '/auth/login', { email, password: wrong })).status).toBe(401);
    const login = await call('POST', '/auth/login', { email, password });
    expect(login.status).toBe(200);
    secrets.add(login.json.accessToken!).add(login.json.refreshToken!);
    const bearer = { authorization: `Bearer ${login.json.accessToken}` };

    const refreshed = await call('POST', '/auth/refresh-token', { token: login.json.refreshToken });
    expect(refreshed.status).toBe(200);
    secrets.add(refreshed.json.accessToken!).add(refreshed.json.refreshToken!);
    // Reusing the old refresh token is refused (and revokes its family): its error path logs too.
    expect((await call('POST', '/auth/refresh-token', { token: login.json.refreshToken })).status).toBe(401);

    const key = await call('POST', `/clientProfile/generateAPIKey/${clientId}`, undefined, { authorization: `Bearer ${refreshed.json.accessToken}` });
    if (key.status === 401) {
      // The reuse above revoked the family; log in again for the rest.
      const again = await call('POST', '/auth/login', { email, password });
      secrets.add(again.json.accessToken!).add(again.json.refreshToken!);
      Object.assign(bearer, { authorization: `Bearer ${again.json.accessToken}` });
    }
    const generated = key.status === 200 ? key : await call('POST', `/clientProfile/generateAPIKey/${clientId}`, undefined, bearer);
    expect(generated.status).toBe(200);
    const apiKey = generated.json.apiKey!;
    secrets.add(apiKey);
    expect((await call('GET', `/clientProfile/${clientId}`, undefined, { 'x-api-key': apiKey })).status).toBe(200);
    expect((await call('GET', `/clientProfile/${clientId}`, undefined, { 'x-api-key': `${apiKey}x` })).status).toBe(401);

    const streamToken = await call('POST', '/test/events/token', undefined, { 'x-api-key': apiKey });
    expect(streamToken.status).toBe(200);
    const token = Object.values(streamToken.json).find((v) => typeof v === 'string' && v.length > 20)!;
    secrets.add(token);
    const stream = await fetch(`${base}/test/events?token=${encodeURIComponent(token)}`);
    await stream.body?.cancel();

    expect((await call('POST', '/auth/forgot-password', { email })).status).toBe(200);
    const resetToken = await resetTokenFromOutbox(path.join(dataDir, 'outbox'));
    secrets.add(resetToken);
    const newPassword = `second ${randomBytes(8).toString('hex')}`;
    secrets.add(newPassword);
    expect((await call('POST', '/auth/reset-password', { token: resetToken, password: newPassword })).status).toBe(200);
    expect((await call('POST', '/auth/reset-password', { token: resetToken, password: newPassword })).status).toBeGreaterThanOrEqual(400);

    // Let the last lines reach the file.
    await new Promise((r) => setTimeout(r, 500));
    const output = readFileSync(logFile, 'utf8');
    expect(output.length, 'the server logged nothing at trace level').toBeGreaterThan(1000);
    for (const secret of secrets) {
      expect(output.includes(secret), `a secret (${secret.slice(0, 6)}…) is in the log`).toBe(false);
    }
  });
});
