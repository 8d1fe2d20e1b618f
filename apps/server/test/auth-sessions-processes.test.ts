import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createTestClient, login, secondApiProcess, TEST_DATABASE_URL } from './helpers/app.ts';
import { resetTokenFor } from './helpers/auth.ts';


/** The revocation reaches another process through NOTIFY: allow it the few milliseconds it takes. */
async function statusSoon(read: () => Promise<number>, want: number, withinMs = 1_000): Promise<number> {
  const end = Date.now() + withinMs;
  let status = await read();
  while (status !== want && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 10));
    status = await read();
  }
  return status;
}

describe.skipIf(!TEST_DATABASE_URL)('sessions revoked in one API process end in the others (PostgreSQL)', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  beforeAll(async () => {
    a = await buildTestApp();
    b = await secondApiProcess(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a logout in A ends the session in B, where it was remembered', async () => {
    const c = await createTestClient(a);
    const session = await login(a, c.email, c.password);
    const readInB = async () => (await b.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: bearer(session.accessToken) })).statusCode;
    expect(await readInB()).toBe(200);
    expect(await readInB()).toBe(200);
    const start = Date.now();
    expect((await a.inject({ method: 'POST', url: '/auth/logout', payload: { token: session.refreshToken } })).statusCode).toBe(200);
    expect(await statusSoon(readInB, 401)).toBe(401);
    console.log(`logout in A reached B within ${Date.now() - start} ms`);
  });

  it('a password reset in B ends every session in A', async () => {
    const c = await createTestClient(a);
    const sessions = [await login(a, c.email, c.password), await login(b, c.email, c.password)];
    const readInA = (token: string) => async () => (await a.inject({ method: 'GET', url: `/clientProfile/${c.clientId}`, headers: bearer(token) })).statusCode;
    for (const s of sessions) expect(await readInA(s.accessToken)()).toBe(200);
    const token = await resetTokenFor(b, c.email);
    expect((await b.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: 'reset in process b' } })).statusCode).toBe(200);
    for (const s of sessions) expect(await statusSoon(readInA(s.accessToken), 401)).toBe(401);
  });
});
