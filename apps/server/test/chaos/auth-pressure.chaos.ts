import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createResetToken } from '../../src/features/auth/reset-token-repository.ts';
import { bearer, createTestClient, login, type TestClient, useApp } from '../helpers/app.ts';
import { buildAccountThrottledApp, MAX_PER_ACCOUNT, mailsTo, settledMailsTo } from '../helpers/auth.ts';

/**
 * Auth under pressure: the reset-mail flood, resets racing refreshes, a storm of parallel guesses and mass
 * logouts, at a higher volume than the API tests. Each case prints its figures.
 */

function p95(ms: number[]): number {
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
}

async function timed(run: () => Promise<LightMyRequestResponse>): Promise<{ res: LightMyRequestResponse; ms: number }> {
  const start = performance.now();
  const res = await run();
  return { res, ms: performance.now() - start };
}

const ip = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

describe('auth under pressure', () => {
  const fixture = useApp(buildAccountThrottledApp);

  it('a flood of 300 reset asks for one address sends at most the limit of mails; every answer is the same 200', async () => {
    const { app } = fixture;
    const c = await createTestClient(app);
    const start = performance.now();
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        timed(() => app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: c.email }, remoteAddress: ip(i + 1) })),
      ),
    );
    const wall = performance.now() - start;
    const health = await timed(() => app.inject({ url: '/healthz' }));
    const bodies = new Set(results.map((r) => r.res.body));
    expect(results.every((r) => r.res.statusCode === 200)).toBe(true);
    expect(bodies.size).toBe(1);
    const mails = await settledMailsTo(app, c.email, 1, 800);
    console.log(
      `reset flood: 300 asks in ${wall.toFixed(0)} ms, p95 ${p95(results.map((r) => r.ms)).toFixed(0)} ms, ` +
        `${mails.length} mails (limit ${app.env.FORGOT_PASSWORD_MAX_PER_ACCOUNT}), /healthz after ${health.ms.toFixed(0)} ms`,
    );
    expect(mails.length).toBeLessThanOrEqual(app.env.FORGOT_PASSWORD_MAX_PER_ACCOUNT);
    expect(mails.length).toBeGreaterThan(0);
  });

  it('200 parallel wrong guesses for one account from 200 addresses: at most the limit are judged', async () => {
    const { app } = fixture;
    const c = await createTestClient(app);
    const start = performance.now();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        app.inject({ method: 'POST', url: '/auth/login', payload: { email: c.email, password: `guess ${i}` }, remoteAddress: ip(1000 + i) }),
      ),
    );
    const wall = performance.now() - start;
    const judged = results.filter((r) => r.statusCode === 401).length;
    const throttled = results.filter((r) => r.statusCode === 429 && Number(r.headers['retry-after']) > 0).length;
    console.log(`guess storm: 200 guesses in ${wall.toFixed(0)} ms, ${judged} judged (limit ${MAX_PER_ACCOUNT}), ${throttled} throttled with Retry-After`);
    expect(judged).toBeLessThanOrEqual(MAX_PER_ACCOUNT);
    expect(judged + throttled).toBe(200);
    const right = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: c.email, password: c.password }, remoteAddress: ip(5000) });
    expect(right.statusCode).toBe(429);
  });

  it('5 accounts guessed at 60 in parallel each: every account judges at most the limit', async () => {
    const { app } = fixture;
    const victims = await Promise.all(Array.from({ length: 5 }, () => createTestClient(app)));
    const results = await Promise.all(
      victims.flatMap((v, a) =>
        Array.from({ length: 60 }, (_, i) =>
          app
            .inject({ method: 'POST', url: '/auth/login', payload: { email: v.email, password: `guess ${i}` }, remoteAddress: ip(20_000 + a * 100 + i) })
            .then((r) => ({ account: a, status: r.statusCode })),
        ),
      ),
    );
    const judgedPer = victims.map((_, a) => results.filter((r) => r.account === a && r.status === 401).length);
    console.log(`5 accounts × 60 guesses: judged per account ${judgedPer.join(', ')}`);
    for (const judged of judgedPer) expect(judged).toBeLessThanOrEqual(MAX_PER_ACCOUNT);
  });

  it('resets racing refreshes and reads: no token issued before a reset survives it', async () => {
    const { app } = fixture;
    const ROUNDS = 30;
    let refreshWon = 0;
    let survivors = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const c: TestClient = await createTestClient(app, { password: `round ${round} password` });
      const session = await login(app, c.email, c.password);
      const token = await createResetToken(app.db, c.userId, 600);
      const url = `/clientProfile/${c.clientId}`;
      // A refresh, a read and the reset, all at once; the refresh starts a little later each round, so it lands
      // before, inside and after the reset's transaction.
      const delay = (round * 7) % 80;
      const [refreshed, , reset] = await Promise.all([
        new Promise((r) => setTimeout(r, delay)).then(() =>
          app.inject({ method: 'POST', url: '/auth/refresh-token', payload: { token: session.refreshToken } }),
        ),
        app.inject({ method: 'GET', url, headers: bearer(session.accessToken) }),
        app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: `new password ${round}!` } }),
      ]);
      expect(reset.statusCode).toBe(200);
      const tokens = [session.accessToken];
      const refreshTokens = [session.refreshToken];
      if (refreshed.statusCode === 200) {
        refreshWon += 1;
        tokens.push(refreshed.json().accessToken);
        refreshTokens.push(refreshed.json().refreshToken);
      }
      for (const t of tokens) if ((await app.inject({ method: 'GET', url, headers: bearer(t) })).statusCode !== 401) survivors += 1;
      for (const t of refreshTokens) {
        if ((await app.inject({ method: 'POST', url: '/auth/refresh-token', payload: { token: t } })).statusCode !== 401) survivors += 1;
      }
    }
    console.log(`reset races: ${ROUNDS} rounds, the racing refresh won ${refreshWon} times, ${survivors} tokens survived a reset`);
    expect(survivors).toBe(0);
  });

  it('100 logouts at once while their tokens are in use: every logged-out session is dead, the others live', async () => {
    const { app } = fixture;
    const users = await Promise.all(Array.from({ length: 10 }, (_, i) => createTestClient(app, { password: `logout user ${i} pw` })));
    const sessions: { user: TestClient; accessToken: string; refreshToken: string }[] = [];
    for (const user of users) {
      for (let i = 0; i < 11; i += 1) sessions.push({ user, ...(await login(app, user.email, user.password)) });
    }
    const leaving = sessions.filter((_, i) => i % 11 !== 0);
    const staying = sessions.filter((_, i) => i % 11 === 0);
    const read = (s: (typeof sessions)[number]) => app.inject({ method: 'GET', url: `/clientProfile/${s.user.clientId}`, headers: bearer(s.accessToken) });
    const start = performance.now();
    await Promise.all([
      ...leaving.map((s) => app.inject({ method: 'POST', url: '/auth/logout', payload: { token: s.refreshToken } })),
      ...sessions.map(read),
    ]);
    const wall = performance.now() - start;
    let leaked = 0;
    for (const s of leaving) {
      if ((await read(s)).statusCode !== 401) leaked += 1;
      if ((await app.inject({ method: 'POST', url: '/auth/refresh-token', payload: { token: s.refreshToken } })).statusCode !== 401) leaked += 1;
    }
    const alive = (await Promise.all(staying.map(read))).filter((r) => r.statusCode === 200).length;
    console.log(`mass logout: ${leaving.length} logouts with ${sessions.length} reads in ${wall.toFixed(0)} ms; ${leaked} tokens outlived their logout; ${alive}/${staying.length} other sessions alive`);
    expect(leaked).toBe(0);
    expect(alive).toBe(staying.length);
    expect(await mailsTo(app, users[0]!.email)).toHaveLength(0);
  });
});
