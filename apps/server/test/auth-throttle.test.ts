import { FORGOT_PASSWORD_MESSAGE } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loginFailures } from '../src/db/schema/index.ts';
import { createResetToken } from '../src/features/auth/reset-token-repository.ts';
import { buildTestApp, createTestClient, login, useApp } from './helpers/app.ts';
import { buildAccountThrottledApp, MAX_PER_ACCOUNT, mailsTo, resetTokenFor, settledMailsTo } from './helpers/auth.ts';

const forgot = (app: FastifyInstance, email: string, ip = '127.0.0.1') =>
  app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email }, remoteAddress: ip });
const attempt = (app: FastifyInstance, email: string, password: string, ip = '127.0.0.1') =>
  app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress: ip });

describe('login throttle and reset-mail limits under concurrency', () => {
  const fixture = useApp(buildAccountThrottledApp);

  it('30 parallel wrong passwords for one account: at most the limit are judged, the rest 429; then the right one is refused too', async () => {
    const { app } = fixture;
    const c = await createTestClient(app);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => attempt(app, c.email, `wrong password ${i}`, `10.1.0.${i + 1}`)));
    const judged = results.filter((r) => r.statusCode === 401);
    const throttled = results.filter((r) => r.statusCode === 429);
    expect(judged.length).toBeLessThanOrEqual(MAX_PER_ACCOUNT);
    expect(judged.length).toBeGreaterThan(0);
    expect(judged.length + throttled.length).toBe(30);
    for (const r of throttled) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.json().message).toMatch(/Too many failed login attempts/);
    }
    const right = await attempt(app, c.email, c.password, '10.1.1.1');
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('the right password works again once the window has passed', async () => {
    const short = await buildTestApp({ env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: 2, LOGIN_THROTTLE_WINDOW: 1 } });
    try {
      const c = await createTestClient(short);
      await Promise.all(Array.from({ length: 6 }, () => attempt(short, c.email, 'wrong password')));
      expect((await attempt(short, c.email, c.password)).statusCode).toBe(429);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await attempt(short, c.email, c.password)).statusCode).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('a successful login does not count against its address', async () => {
    const strict = await buildTestApp({ env: { LOGIN_MAX_FAILURES_PER_ADDRESS: 2 } });
    try {
      const c = await createTestClient(strict);
      for (let i = 0; i < 5; i += 1) expect((await attempt(strict, c.email, c.password, '10.7.0.1')).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('during a lock-out the reset mail still arrives, and the reset ends the lock-out', async () => {
    const { app } = fixture;
    const c = await createTestClient(app);
    await Promise.all(Array.from({ length: 10 }, () => attempt(app, c.email, 'attacker guess', '203.0.113.9')));
    expect((await attempt(app, c.email, c.password, '198.51.100.7')).statusCode).toBe(429);

    const token = await resetTokenFor(app, c.email);
    const newPassword = 'the owner is back in';
    expect((await app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: newPassword } })).statusCode).toBe(200);
    const session = await login(app, c.email, newPassword);
    expect(session.accessToken).toBeTruthy();
  });

  it('an attacker re-locking the account after the reset does not keep the owner out', async () => {
    const { app } = fixture;
    const c = await createTestClient(app);
    const token = await createResetToken(app.db, c.userId, 600);
    const newPassword = 'owner reset from home';
    const home = '198.51.100.20';
    expect((await app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: newPassword }, remoteAddress: home })).statusCode).toBe(200);
    await Promise.all(Array.from({ length: 10 }, () => attempt(app, c.email, 'attacker guess', '203.0.113.10')));
    // Locked for everyone else, but not for the address the owner proved itself from.
    expect((await attempt(app, c.email, newPassword, '198.51.100.21')).statusCode).toBe(429);
    expect((await attempt(app, c.email, newPassword, home)).statusCode).toBe(200);
  });

  it('an address the owner logged in from keeps working during a lock-out, with its own limit', async () => {
    const { app } = fixture;
    const c = await createTestClient(app);
    const office = '192.0.2.50';
    await login(app, c.email, c.password, office);
    await Promise.all(Array.from({ length: 10 }, () => attempt(app, c.email, 'attacker guess', '203.0.113.11')));
    expect((await attempt(app, c.email, c.password, '192.0.2.51')).statusCode).toBe(429);
    expect((await attempt(app, c.email, c.password, office)).statusCode).toBe(200);
    // Guessing from the trusted address is limited the same way.
    const results = await Promise.all(Array.from({ length: 30 }, () => attempt(app, c.email, 'wrong from office', office)));
    expect(results.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(MAX_PER_ACCOUNT);
    expect((await attempt(app, c.email, c.password, office)).statusCode).toBe(429);
  });

  it('guesses at other accounts from an address (a scan of the login from the same machine) do not shut out an owner who logged in from it', async () => {
    const limited = await buildTestApp({ env: { LOGIN_MAX_FAILURES_PER_ADDRESS: 4 } });
    try {
      const owner = await createTestClient(limited);
      const newcomer = await createTestClient(limited);
      const machine = '10.4.0.1';
      await login(limited, owner.email, owner.password, machine);
      for (let i = 0; i < 6; i++) await attempt(limited, `scan-${i}@example.test`, "' OR 1=1 --", machine);
      // The address is over its limit for anyone it has not proved itself for...
      expect((await attempt(limited, newcomer.email, newcomer.password, machine)).statusCode).toBe(429);
      // ...but the owner who logged in from it before still gets in, and guessing at the owner's account stays limited.
      expect((await attempt(limited, owner.email, owner.password, machine)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('40 reset asks for one address send at most FORGOT_PASSWORD_MAX_PER_ACCOUNT mails; every answer is the same 200', async () => {
    const { app } = fixture;
    const c = await createTestClient(app);
    const ghost = 'ghost-flood@example.test';
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => forgot(app, c.email, `10.2.0.${i + 1}`)));
    const ghostAnswers = await Promise.all(Array.from({ length: 5 }, (_, i) => forgot(app, ghost, `10.2.1.${i + 1}`)));
    for (const res of [...answers, ...ghostAnswers]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    }
    const mails = await settledMailsTo(app, c.email, app.env.FORGOT_PASSWORD_MAX_PER_ACCOUNT, 500);
    expect(mails.length).toBe(app.env.FORGOT_PASSWORD_MAX_PER_ACCOUNT);
    expect(app.env.FORGOT_PASSWORD_MAX_PER_ACCOUNT).toBe(3);
    expect(await mailsTo(app, ghost)).toHaveLength(0);
  });

  it('one source asking for many addresses is limited per source', async () => {
    const limited = await buildTestApp({ env: { FORGOT_PASSWORD_MAX_PER_ADDRESS: 4 } });
    try {
      const users = await Promise.all(Array.from({ length: 8 }, () => createTestClient(limited)));
      for (const u of users) expect((await forgot(limited, u.email, '10.3.0.1')).json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
      await settledMailsTo(limited, users[3]!.email, 1, 500);
      const sent = (await Promise.all(users.map((u) => mailsTo(limited, u.email)))).map((m) => m.length);
      expect(sent).toEqual([1, 1, 1, 1, 0, 0, 0, 0]);
      // Another source is not affected.
      await forgot(limited, users[7]!.email, '10.3.0.2');
      expect(await settledMailsTo(limited, users[7]!.email, 1, 0)).toHaveLength(1);
    } finally {
      await limited.close();
    }
  });

  it('keeps counters in the database, shared by every process', async () => {
    const { app } = fixture;
    const rows = await app.db.select().from(loginFailures);
    expect(rows.some((r) => r.key.startsWith('reset-account:'))).toBe(true);
    expect(rows.some((r) => r.key.startsWith('account:'))).toBe(true);
  });
});
