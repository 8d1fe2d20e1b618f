import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createTestClient, login, operatorBearer, secondApiProcess, TEST_DATABASE_URL } from './helpers/app.ts';
import { resetTokenFor } from './helpers/auth.ts';
import { slowLinkTo } from './helpers/slow-link.ts';


/**
 * A revocation reaches the other processes by NOTIFY, and a process trusts what it remembered only once it has heard
 * every message sent before the call (ClusterChannel.caughtUp): the next call to any process is refused, however
 * busy the machine. B reaches the database over a slow link, so its notifications come 40 ms after A has answered.
 */
async function revealKey(app: FastifyInstance, clientId: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: `/operator/clients/${clientId}/reveal-api-key`, headers: operatorBearer(app) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ apiKey: string }>().apiKey;
}

describe.skipIf(!TEST_DATABASE_URL)('sessions revoked in one API process end in the others (PostgreSQL)', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  let link: Awaited<ReturnType<typeof slowLinkTo>> | undefined;
  beforeAll(async () => {
    a = await buildTestApp();
    if (a.database.kind !== 'postgres') throw new Error('PostgreSQL only');
    link = await slowLinkTo(a.database.url, 40);
    b = await secondApiProcess(a, { databaseUrl: link.url });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await link?.close();
  });

  it('a logout in A ends the session in B, where it was remembered', async () => {
    const c = await createTestClient(a);
    const session = await login(a, c.email, c.password);
    const readInB = async () => (await b.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: bearer(session.accessToken) })).statusCode;
    expect(await readInB()).toBe(200);
    expect(await readInB()).toBe(200);
    expect((await a.inject({ method: 'POST', url: '/auth/logout', payload: { token: session.refreshToken } })).statusCode).toBe(200);
    expect(await readInB()).toBe(401);
  });

  it('a password reset in B ends every session in A', async () => {
    const c = await createTestClient(a);
    const sessions = [await login(a, c.email, c.password), await login(b, c.email, c.password)];
    const readInA = (token: string) => async () => (await a.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: bearer(token) })).statusCode;
    for (const s of sessions) expect(await readInA(s.accessToken)()).toBe(200);
    const token = await resetTokenFor(b, c.email);
    expect((await b.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: 'reset in process b' } })).statusCode).toBe(200);
    for (const s of sessions) expect(await readInA(s.accessToken)()).toBe(401);
  });

  it('an API key replaced in A is refused by the next call to B, where it was remembered', async () => {
    const c = await createTestClient(a);
    const readInB = async (key: string) => (await b.inject({ method: 'GET', url: '/test/fetch/all', headers: { 'x-api-key': key } })).statusCode;
    for (let round = 0; round < 5; round++) {
      const old = await revealKey(a, c.clientId);
      expect(await readInB(old)).toBe(200);
      expect(await readInB(old)).toBe(200);
      expect((await a.inject({ method: 'POST', url: `/clientProfile/generateAPIKey/${c.clientId}`, headers: operatorBearer(a) })).statusCode).toBe(200);
      expect(await readInB(old)).toBe(401);
      expect(await readInB(await revealKey(b, c.clientId))).toBe(200);
    }
  });
});
