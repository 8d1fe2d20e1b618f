import { insightTrends } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, type TestClient } from '../helpers/app.ts';
import { engineWithTwoClients, key, mixedSuite, runAndWait } from './helpers.ts';

describe('GET /insight/trends', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    ({ app, a, b } = await engineWithTwoClients(3, mixedSuite()));
  });
  afterAll(async () => app?.close());

  it('answers {} for a client without runs, and needs a key or a token', async () => {
    const res = await app.inject({ url: '/insight/trends', headers: key(b) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect((await app.inject({ url: '/insight/trends' })).statusCode).toBe(401);
  });

  it('gives each card the date of its run and a point per run, oldest first', async () => {
    await runAndWait(app, a, 'all');
    await runAndWait(app, a, 'marketing pages');
    const res = await app.inject({ url: '/insight/trends', headers: key(a) });
    expect(res.statusCode).toBe(200);
    const body = insightTrends.parse(res.json());
    expect(Object.keys(body).sort()).toEqual(['frontend-report', 'load', 'zap']);

    // Run all: 3 of 4 browser cases passed; then "marketing pages" alone: 2 of 2.
    const frontend = body['frontend-report']!;
    expect(frontend.points.map((p) => p.passRate)).toEqual([75, 100]);
    expect(frontend.runAt).toBe(frontend.points[1]!.at);
    expect(new Date(frontend.points[0]!.at) <= new Date(frontend.points[1]!.at)).toBe(true);

    expect(body.load!.points).toEqual([expect.objectContaining({ p95Ms: 30.3, averageMs: 12.5, failedRate: 2 })]);
    expect(body.zap!.points).toEqual([expect.objectContaining({ High: 1, Medium: 2, Low: 3, Informational: 1 })]);
    // The load card's run is the "Run all", older than the frontend card's.
    expect(new Date(body.load!.runAt) < new Date(frontend.runAt)).toBe(true);
  });

  it('shows another client only its own runs', async () => {
    expect((await app.inject({ url: '/insight/trends', headers: key(b) })).json()).toEqual({});
    const session = await login(app, b.email, b.password);
    const sessions = await app.inject({ url: '/insight/trends', headers: bearer(session.accessToken) });
    expect(sessions.statusCode).toBe(200);
    expect(sessions.json()).toEqual({});
  });
});
