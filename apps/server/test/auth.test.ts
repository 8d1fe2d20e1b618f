import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { FORGOT_PASSWORD_MESSAGE, type LoginResponse } from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens } from '../src/db/schema/index.ts';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from './helpers/app.ts';

const refresh = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'POST', url: '/auth/refresh-token', payload: { token } });

async function waitForMail(dir: string, to: string): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    for (const name of await readdir(dir)) {
      const text = await readFile(path.join(dir, name), 'utf8');
      if (text.includes(`To: ${to}`)) return text;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to}`);
}

/** The token in the mail's link (the .eml body is quoted-printable: soft breaks and =3D for '='). */
const resetTokenOf = (mail: string) =>
  /resetToken=([A-Za-z0-9_%-]+)/.exec(mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='))![1]!;

describe('auth', () => {
  let app: FastifyInstance;
  let c: TestClient;
  beforeAll(async () => {
    app = await buildTestApp({ env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: 3, LOGIN_MAX_FAILURES_PER_ADDRESS: 6 } });
    c = await createTestClient(app);
  });
  afterAll(async () => app?.close());

  it('logs in with the spec payload and answers the spec fields', async () => {
    const res = await login(app, c.email.toUpperCase(), c.password);
    expect(res.accessToken).toBeTruthy();
    expect(res.refreshToken).toBeTruthy();
    expect(res.userData).toMatchObject({ id: c.userId, clientId: c.clientId, role: 'client' });
    expect(res.userData.username).toBeTruthy();
    const profile = await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: bearer(res.accessToken) });
    expect(profile.statusCode).toBe(200);
  });

  it('answers 401 "Invalid credentials" for a wrong password and for an unknown email alike', async () => {
    const other = await createTestClient(app);
    const wrong = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: other.email, password: 'nope nope nope' } });
    const unknown = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'nobody@example.test', password: 'nope nope nope' } });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: 'Invalid credentials' });
    }
  });

  it('rotates refresh tokens; the new access token works', async () => {
    const first = await login(app, c.email, c.password);
    const res = await refresh(app, first.refreshToken);
    expect(res.statusCode).toBe(200);
    const pair = res.json<{ accessToken: string; refreshToken: string }>();
    expect(pair.refreshToken).not.toBe(first.refreshToken);
    const again = await refresh(app, pair.refreshToken);
    expect(again.statusCode).toBe(200);
    const profile = await app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: bearer(again.json<LoginResponse>().accessToken) });
    expect(profile.statusCode).toBe(200);
  });

  it('revokes the whole family when a refresh token is used twice', async () => {
    const first = await login(app, c.email, c.password);
    const second = (await refresh(app, first.refreshToken)).json<{ refreshToken: string }>();
    const replay = await refresh(app, first.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/refresh token/i);
    // The legitimate holder's newer token died with the family.
    expect((await refresh(app, second.refreshToken)).statusCode).toBe(401);
    // Another session of the same user is untouched.
    const other = await login(app, c.email, c.password);
    expect((await refresh(app, other.refreshToken)).statusCode).toBe(200);
  });

  it('lets exactly one of 20 concurrent refreshes of one token win', async () => {
    const { refreshToken } = await login(app, c.email, c.password);
    const results = await Promise.all(Array.from({ length: 20 }, () => refresh(app, refreshToken)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((s) => s === 200)).toHaveLength(1);
    expect(codes.filter((s) => s === 401)).toHaveLength(19);
  });

  it('refuses an unknown or garbage refresh token with 401', async () => {
    expect((await refresh(app, 'fsr_not-a-real-token')).statusCode).toBe(401);
    expect((await refresh(app, 'x'.repeat(200))).statusCode).toBe(401);
  });

  it('expires access tokens after ACCESS_TOKEN_TTL', async () => {
    // A token's expiry is in whole seconds from the second it was signed in, so a TTL of N lives N-1 to N seconds:
    // 2 leaves the first call at least a second, and 3.1 s later it has surely expired.
    const short = await buildTestApp({ env: { ACCESS_TOKEN_TTL: 2 } });
    try {
      const u = await createTestClient(short);
      const { accessToken, refreshToken } = await login(short, u.email, u.password);
      const url = `/clientProfile/${u.clientId}`;
      expect((await short.inject({ method: 'GET', url, headers: bearer(accessToken) })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 3100));
      const expired = await short.inject({ method: 'GET', url, headers: bearer(accessToken) });
      expect(expired.statusCode).toBe(401);
      const renewed = (await refresh(short, refreshToken)).json<{ accessToken: string }>();
      expect((await short.inject({ method: 'GET', url, headers: bearer(renewed.accessToken) })).statusCode).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('throttles per account with 429, a clear message and Retry-After', async () => {
    const victim = await createTestClient(app);
    const attempt = (password: string, ip: string) =>
      app.inject({ method: 'POST', url: '/auth/login', payload: { email: victim.email, password }, remoteAddress: ip });
    for (let i = 0; i < 3; i += 1) expect((await attempt('wrong password', `10.0.0.${i + 1}`)).statusCode).toBe(401);
    // Even the right password is refused now, from any address.
    const blocked = await attempt(victim.password, '10.0.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed login attempts.*try again in \d+ minute/i);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('throttles per address across accounts', async () => {
    const ip = '10.9.9.9';
    const fresh = await createTestClient(app);
    for (let i = 0; i < 6; i += 1) {
      const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: `nobody${i}@example.test`, password: 'wrong password' }, remoteAddress: ip });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: fresh.email, password: fresh.password }, remoteAddress: ip });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    const elsewhere = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: fresh.email, password: fresh.password }, remoteAddress: '10.9.9.10' });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('answers forgot-password the same way for known and unknown emails, and mails a link', async () => {
    const u = await createTestClient(app);
    const known = await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: u.email } });
    const unknown = await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: 'ghost@example.test' } });
    expect(known.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(known.json().message).toBe(FORGOT_PASSWORD_MESSAGE);
    const mail = await waitForMail(app.paths.outbox, u.email);
    expect(mail).toContain('/login?resetToken=');
    const outbox = await readdir(app.paths.outbox);
    expect(outbox.some((n) => n.includes('ghost'))).toBe(false);
  });

  it('resets the password with a single-use token and ends old sessions', async () => {
    const u = await createTestClient(app);
    const session = await login(app, u.email, u.password);
    await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: u.email } });
    const token = decodeURIComponent(resetTokenOf(await waitForMail(app.paths.outbox, u.email)));
    const newPassword = 'a brand new password';
    const ok = await app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: newPassword } });
    expect(ok.statusCode).toBe(200);
    const reused = await app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: 'yet another password' } });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ field: 'token' });
    expect((await app.inject({ method: 'POST', url: '/auth/login', payload: { email: u.email, password: u.password } })).statusCode).toBe(401);
    await login(app, u.email, newPassword);
    expect((await refresh(app, session.refreshToken)).statusCode).toBe(401);
  });

  it('refuses an expired reset token', async () => {
    const u = await createTestClient(app);
    await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: u.email } });
    const token = decodeURIComponent(resetTokenOf(await waitForMail(app.paths.outbox, u.email)));
    await app.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResetTokens.userId, u.userId));
    const res = await app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: 'a brand new password' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/invalid or has expired/);
  });
});
