import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../src/db/schema/index.ts';
import type { SessionEvent } from '../src/lib/session-events.ts';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from './helpers/app.ts';
import { resetTokenFor } from './helpers/auth.ts';

const refresh = (app: FastifyInstance, token: string) => app.inject({ method: 'POST', url: '/auth/refresh-token', payload: { token } });
const logout = (app: FastifyInstance, token: string) => app.inject({ method: 'POST', url: '/auth/logout', payload: { token } });
const profile = (app: FastifyInstance, c: TestClient, accessToken: string) =>
  app.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: bearer(accessToken) });

describe('auth sessions: reset and logout revoke tokens already handed out', () => {
  let app: FastifyInstance;
  const events: SessionEvent[] = [];
  beforeAll(async () => {
    app = await buildTestApp();
    app.sessionEvents.on((e) => events.push(e));
  });
  afterAll(async () => app?.close());

  it('a password reset makes every access and refresh token issued before it answer 401; a new login works', async () => {
    const c = await createTestClient(app);
    const a = await login(app, c.email, c.password);
    const b = await login(app, c.email, c.password);
    const renewed = (await refresh(app, b.refreshToken)).json<{ accessToken: string; refreshToken: string }>();
    // Read once, so the profile and the session check are both cached before the reset.
    expect((await profile(app, c, a.accessToken)).statusCode).toBe(200);
    expect((await profile(app, c, renewed.accessToken)).statusCode).toBe(200);

    const token = await resetTokenFor(app, c.email);
    const newPassword = 'a brand new password';
    expect((await app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: newPassword } })).statusCode).toBe(200);

    for (const accessToken of [a.accessToken, b.accessToken, renewed.accessToken]) {
      const res = await profile(app, c, accessToken);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    }
    for (const refreshToken of [a.refreshToken, renewed.refreshToken]) expect((await refresh(app, refreshToken)).statusCode).toBe(401);
    expect(events).toContainEqual({ type: 'user-revoked', clientId: c.clientId, userId: c.userId });

    // Issued right after the reset, within the same second: works (sessions, not second-granular iat).
    const fresh = await login(app, c.email, newPassword);
    expect((await profile(app, c, fresh.accessToken)).statusCode).toBe(200);
    expect((await refresh(app, fresh.refreshToken)).statusCode).toBe(200);
  });

  it('a password change ends every session, the caller included, and hands the caller a new pair', async () => {
    const c = await createTestClient(app);
    const here = await login(app, c.email, c.password);
    const elsewhere = await login(app, c.email, c.password);
    const change = (accessToken: string, currentPassword: string, newPassword: string) =>
      app.inject({ method: 'POST', url: '/auth/change-password', headers: bearer(accessToken), payload: { currentPassword, newPassword } });
    const wrong = await change(here.accessToken, 'not my password', 'a changed password 1');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ field: 'currentPassword' });
    expect((await app.inject({ method: 'POST', url: '/auth/change-password', headers: { 'x-api-key': c.apiKey }, payload: { currentPassword: c.password, newPassword: 'a changed password 1' } })).statusCode).toBe(403);
    events.length = 0;

    const ok = await change(here.accessToken, c.password, 'a changed password 1');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    const pair = ok.json<{ accessToken: string; refreshToken: string }>();
    for (const old of [here, elsewhere]) {
      expect((await profile(app, c, old.accessToken)).statusCode).toBe(401);
      expect((await refresh(app, old.refreshToken)).statusCode).toBe(401);
    }
    expect(events).toContainEqual({ type: 'user-revoked', clientId: c.clientId, userId: c.userId });
    expect((await profile(app, c, pair.accessToken)).statusCode).toBe(200);
    expect((await refresh(app, pair.refreshToken)).statusCode).toBe(200);
    await login(app, c.email, 'a changed password 1');
  });

  it('logout revokes the refresh token and the access tokens of that session only', async () => {
    const c = await createTestClient(app);
    const mine = await login(app, c.email, c.password);
    const other = await login(app, c.email, c.password);
    expect((await profile(app, c, mine.accessToken)).statusCode).toBe(200);
    events.length = 0;

    const res = await logout(app, mine.refreshToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out' });
    expect((await refresh(app, mine.refreshToken)).statusCode).toBe(401);
    expect((await profile(app, c, mine.accessToken)).statusCode).toBe(401);
    expect(events).toContainEqual({ type: 'user-revoked', clientId: c.clientId, userId: c.userId });

    // Another login of the same user is untouched.
    expect((await profile(app, c, other.accessToken)).statusCode).toBe(200);
    expect((await refresh(app, other.refreshToken)).statusCode).toBe(200);

    // Logging out again, or with an unknown token, answers the same.
    expect((await logout(app, mine.refreshToken)).statusCode).toBe(200);
    expect((await logout(app, 'fsr_unknown')).json()).toEqual({ message: 'Logged out' });
    const audited = await app.db.select().from(auditEvents).where(eq(auditEvents.userId, c.userId));
    expect(audited.filter((e) => e.type === 'logout')).toHaveLength(1);
  });

  it('logout with a rotated-away refresh token still ends the session', async () => {
    const c = await createTestClient(app);
    const first = await login(app, c.email, c.password);
    const second = (await refresh(app, first.refreshToken)).json<{ accessToken: string; refreshToken: string }>();
    expect((await logout(app, first.refreshToken)).statusCode).toBe(200);
    expect((await refresh(app, second.refreshToken)).statusCode).toBe(401);
    expect((await profile(app, c, second.accessToken)).statusCode).toBe(401);
  });

  it('a reused refresh token ends the access tokens of its session too', async () => {
    const c = await createTestClient(app);
    const first = await login(app, c.email, c.password);
    const second = (await refresh(app, first.refreshToken)).json<{ accessToken: string }>();
    expect((await profile(app, c, second.accessToken)).statusCode).toBe(200);
    expect((await refresh(app, first.refreshToken)).statusCode).toBe(401);
    expect((await profile(app, c, second.accessToken)).statusCode).toBe(401);
  });

  it('announces a replaced API key', async () => {
    const c = await createTestClient(app);
    const { accessToken } = await login(app, c.email, c.password);
    events.length = 0;
    expect((await app.inject({ method: 'POST', url: `/clientProfile/generateAPIKey/${c.clientId}`, headers: bearer(accessToken) })).statusCode).toBe(200);
    expect(events).toEqual([{ type: 'api-key-replaced', clientId: c.clientId }]);
  });

  describe('forged tokens', () => {
    let c: TestClient;
    let sessionId: string;
    const claims = () => ({ cid: c.clientId, role: 'client', tr: 'owner', sid: sessionId });
    const sign = (alg: string, key: Uint8Array | KeyObject) =>
      new SignJWT(claims()).setProtectedHeader({ alg }).setSubject(c.userId).setIssuer('fullstop').setAudience('fullstop-api').setIssuedAt().setExpirationTime('5m').sign(key);
    beforeAll(async () => {
      c = await createTestClient(app);
      const { accessToken } = await login(app, c.email, c.password);
      sessionId = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid as string;
      expect(sessionId).toBeTruthy();
    });

    it('refuses alg "none" with valid claims', async () => {
      const unsigned = new UnsecuredJWT(claims()).setSubject(c.userId).setIssuer('fullstop').setAudience('fullstop-api').setIssuedAt().setExpirationTime('5m').encode();
      expect((await profile(app, c, unsigned)).statusCode).toBe(401);
      // The same with a signature part left on.
      expect((await profile(app, c, `${unsigned}AAAA`)).statusCode).toBe(401);
    });

    it('refuses RS256 tokens (HS/RS confusion) and other HMAC algorithms, even with the server key', async () => {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      expect((await profile(app, c, await sign('RS256', privateKey))).statusCode).toBe(401);
      // The classic confusion: an HS256 token keyed with a public key the attacker knows.
      const pem = new TextEncoder().encode(publicKey.export({ type: 'spki', format: 'pem' }).toString());
      expect((await profile(app, c, await sign('HS256', pem))).statusCode).toBe(401);
      expect((await profile(app, c, await sign('HS512', app.keys.jwt))).statusCode).toBe(401);
      // The control: the right algorithm and key are accepted.
      expect((await profile(app, c, await sign('HS256', app.keys.jwt))).statusCode).toBe(200);
    });

    it('refuses a well-signed token without a session, with an unknown one, or with another user\'s', async () => {
      const other = await createTestClient(app);
      const { accessToken } = await login(app, other.email, other.password);
      const otherSid = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid as string;
      const base = (extra: Record<string, unknown>) =>
        new SignJWT({ cid: c.clientId, role: 'client', ...extra }).setProtectedHeader({ alg: 'HS256' }).setSubject(c.userId).setIssuer('fullstop').setAudience('fullstop-api').setIssuedAt().setExpirationTime('5m').sign(app.keys.jwt);
      for (const token of [await base({}), await base({ sid: crypto.randomUUID() }), await base({ sid: otherSid })]) {
        expect((await profile(app, c, token)).statusCode).toBe(401);
      }
    });
  });
});
