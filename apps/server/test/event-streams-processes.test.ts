import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { engineRunTests } from '../src/db/schema/index.ts';
import { eventHubOf } from '../src/features/runs/events-route.ts';
import { testEventOf } from '../src/features/runs/mappers.ts';
import { bearer, buildTestApp, login, secondApiProcess, TEST_DATABASE_URL, type TestClient } from './helpers/app.ts';
import { FAKE_RUNNERS_MODULE, fakeRunners } from './engine/fixtures/fake-runners.ts';
import { clientWithSuite, key, OPERATOR_TOKEN } from './engine/helpers.ts';

const POLL_MS = 200;


/** One open SSE stream read as text. */
interface Stream {
  text(): string;
  /** Resolves with the moment the pattern was first seen. */
  waitFor(pattern: RegExp, ms?: number): Promise<number>;
  abort(): void;
}

async function openStream(base: string, headers: Record<string, string>): Promise<Stream> {
  const ac = new AbortController();
  const res = await fetch(`${base}/test/events`, { headers, signal: ac.signal });
  expect(res.status).toBe(200);
  let text = '';
  const waiters = new Set<() => void>();
  void (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        for (const w of [...waiters]) w();
      }
    } catch {
      // aborted by the test
    }
  })();
  return {
    text: () => text,
    abort: () => ac.abort(),
    waitFor: (pattern, ms = 5_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${pattern} within ${ms} ms: ${text.slice(-400)}`));
        }, ms);
        function check() {
          if (!pattern.test(text)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(Date.now());
        }
        waiters.add(check);
        check();
      }),
  };
}

async function until(condition: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

// Two API processes need a database both can reach: PGlite is one process's (its data-dir lock), so PostgreSQL only.
describe.skipIf(!TEST_DATABASE_URL)('events and cache invalidations between API processes (PostgreSQL, LISTEN/NOTIFY)', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  let baseA: string;
  let c: TestClient;
  const streams: Stream[] = [];
  const hubA = () => eventHubOf(a.engine.deps)!;
  const stream = async (headers: Record<string, string>) => {
    const s = await openStream(baseA, headers);
    streams.push(s);
    await s.waitFor(/event: snapshot/);
    return s;
  };

  beforeAll(async () => {
    a = await buildTestApp({ env: { OPERATOR_TOKEN, EVENT_STREAM_POLL_MS: POLL_MS }, runners: fakeRunners, runnersModule: FAKE_RUNNERS_MODULE });
    await a.listen({ port: 0, host: '127.0.0.1' });
    baseA = `http://127.0.0.1:${(a.server.address() as AddressInfo).port}`;
    b = await secondApiProcess(a, { runners: fakeRunners, runnersModule: FAKE_RUNNERS_MODULE });
    c = await clientWithSuite(a, { G: [{ name: 'one', kind: 'api' }, { name: 'two', kind: 'api' }] });
  });
  afterEach(() => {
    for (const s of streams.splice(0)) s.abort();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('an SSE client of A sees a test event caused in B by notification, with no event-stream poll', async () => {
    const s = await stream(key(c));
    const polls = hubA().polls;
    const started = Date.now();
    const queued = await b.inject({ url: '/test/run/one', headers: key(c) });
    expect(queued.statusCode).toBe(200);
    const runId = queued.json<{ runId: string }>().runId;
    // No time limit across processes (a loaded machine delays any): that A polled nothing is what shows it came by
    // notification. How long it took is printed, for a person reading the log.
    const seen = await s.waitFor(new RegExp(`event: test\\ndata: .*"testName":"one".*"status":"queued".*"runId":"${runId}"`), 15_000);
    console.log(`B's event reached A's stream in ${seen - started} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS * 3));
    expect(hubA().polls).toBe(polls);
    expect(hubA().polls).toBe(0);
  });

  it('an event too large for a notification reaches A as a hint, and A reads the row', async () => {
    const s = await stream(key(c));
    const queued = await b.inject({ url: '/test/run/two', headers: key(c) });
    const runId = queued.json<{ runId: string }>().runId;
    const error = `refused: ${'x'.repeat(12_000)}`;
    // What B's worker does when a test ends: write the row, then emit its event.
    const [row] = await b.db.update(engineRunTests).set({ status: 'error', error, updatedAt: new Date() }).where(eq(engineRunTests.runId, runId)).returning();
    b.engine.deps.bus.emit(c.clientId, { type: 'test', data: testEventOf(row!) });
    await s.waitFor(/"testName":"two".*"status":"error".*"error":"refused: x{12000}"/, 1_000);
  });

  it('a key regenerated in A is refused by B at once, and B reads the profile fresh', async () => {
    const session = await login(a, c.email, c.password);
    const oldKey = { 'x-api-key': c.apiKey };
    const profileInB = async () => (await b.inject({ url: `/clientProfile/${c.clientId}`, headers: bearer(session.accessToken) })).json<{ apiToken: string }>();
    // B remembers the key and caches the profile.
    expect((await b.inject({ url: '/test/runs', headers: oldKey })).statusCode).toBe(200);
    expect((await b.inject({ url: '/test/runs', headers: oldKey })).statusCode).toBe(200);
    expect((await profileInB()).apiToken).toBe(c.apiKey);
    expect((await profileInB()).apiToken).toBe(c.apiKey);

    const regenerated = await a.inject({ method: 'POST', url: `/clientProfile/generateAPIKey/${c.clientId}`, headers: bearer(session.accessToken) });
    expect(regenerated.statusCode).toBe(200);
    const newKey = regenerated.json<{ apiKey: string }>().apiKey;
    const refused = await b.inject({ url: '/test/runs', headers: oldKey });
    expect(refused.statusCode).toBe(401);
    expect((await profileInB()).apiToken).toBe(newKey);
    expect((await b.inject({ url: '/test/runs', headers: { 'x-api-key': newKey } })).statusCode).toBe(200);
    c.apiKey = newKey;
  });

  it("a logout in B ends the user's stream in A", async () => {
    const session = await login(a, c.email, c.password);
    const s = await stream(bearer(session.accessToken));
    expect((await b.inject({ method: 'POST', url: '/auth/logout', payload: { token: session.refreshToken } })).statusCode).toBe(200);
    await s.waitFor(/event: end\ndata: \{"reason":"The session ended"\}/, 500);
  });

  it("results changed by B's worker empty A's cached reports and insights", async () => {
    a.cache.set(c.clientId, 'reports', { stale: true });
    a.cache.set(c.clientId, 'insights', { stale: true });
    b.engine.deps.onResultsChanged(c.clientId);
    await until(() => a.cache.get(c.clientId, 'reports') === undefined && a.cache.get(c.clientId, 'insights') === undefined, 500);
  });

  it('the channel dropping falls back to the poll, misses nothing, and recovers', async () => {
    const s = await stream(key(c));
    const channel = a.cluster!;
    expect(channel.healthy).toBe(true);
    const polls = hubA().polls;
    const admin = new pg.Client({ connectionString: a.database.kind === 'postgres' ? a.database.url : '' });
    admin.on('error', () => {});
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [channel.backendPid]);
    } finally {
      await admin.end();
    }
    // Caused in B while A does not listen: only the poll can tell A.
    const queued = await b.inject({ url: '/test/run/one', headers: key(c) });
    const runId = queued.json<{ runId: string }>().runId;
    await s.waitFor(new RegExp(`"testName":"one".*"status":"queued".*"runId":"${runId}"`), 3_000);
    expect(hubA().polls).toBeGreaterThan(polls);

    // Back: polling stops, events come through the channel again.
    await until(() => channel.healthy, 5_000);
    await new Promise((r) => setTimeout(r, POLL_MS * 2));
    const after = hubA().polls;
    const again = await b.inject({ url: '/test/run/two', headers: key(c) });
    const secondRun = again.json<{ runId: string }>().runId;
    await s.waitFor(new RegExp(`"testName":"two".*"status":"queued".*"runId":"${secondRun}"`), 500);
    await new Promise((r) => setTimeout(r, POLL_MS * 3));
    expect(hubA().polls).toBe(after);
  });
});
