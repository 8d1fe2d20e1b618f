import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { engineRunTests } from '../../src/db/schema/index.ts';
import { eventHubOf } from '../../src/features/runs/events-route.ts';
import { bearer, buildTestApp, login, TEST_DATABASE_URL, type TestClient } from '../helpers/app.ts';
import { fakeRunners } from './fixtures/fake-runners.ts';
import { clientWithSuite, key, OPERATOR_TOKEN } from './helpers.ts';

const POLL_MS = 150;
const CAP = 5;

/** One open stream read as text; `closed` resolves when the server ends it. */
interface Stream {
  status: number;
  text(): string;
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  closed: Promise<void>;
  abort(): void;
}

describe('event streams: capped per credential, closed with their credential, one shared poll', () => {
  let app: FastifyInstance;
  let base: string;
  let a: TestClient;
  let b: TestClient;
  const open: Stream[] = [];

  const connect = async (query: string, headers: Record<string, string> = {}): Promise<Stream> => {
    const ac = new AbortController();
    const res = await fetch(`${base}/test/events${query}`, { headers, signal: ac.signal });
    let text = '';
    let done = false;
    const waiters = new Set<() => void>();
    const closed = (async () => {
      if (!res.body || res.status !== 200) {
        text = await res.text();
        return;
      }
      const reader = res.body.getReader();
      try {
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) break;
          text += new TextDecoder().decode(value);
          for (const w of waiters) w();
        }
      } catch {
        // aborted by the test
      }
    })().finally(() => {
      done = true;
      for (const w of waiters) w();
    });
    const stream: Stream = {
      status: res.status,
      text: () => text,
      closed,
      abort: () => ac.abort(),
      waitFor: (pattern, ms = 5000) =>
        new Promise((resolve, reject) => {
          const check = () => {
            if (pattern.test(text)) {
              waiters.delete(check);
              resolve();
            } else if (done) {
              waiters.delete(check);
              reject(new Error(`stream ended without ${pattern}: ${text.slice(-300)}`));
            }
          };
          waiters.add(check);
          check();
          setTimeout(() => reject(new Error(`no ${pattern} within ${ms} ms: ${text.slice(-300)}`)), ms).unref();
        }),
    };
    if (res.status === 200) open.push(stream);
    return stream;
  };
  const tokenFor = async (headers: Record<string, string>) => {
    const res = await app.inject({ method: 'POST', url: '/test/events/token', headers });
    expect(res.statusCode).toBe(200);
    return `?token=${encodeURIComponent(res.json<{ token: string }>().token)}`;
  };
  const settle = async () => {
    const hub = eventHubOf(app.engine.deps)!;
    for (let i = 0; i < 100 && hub.openStreams > 0; i += 1) await new Promise((r) => setTimeout(r, 20));
  };

  beforeAll(async () => {
    // On PostgreSQL the poll mode (a transaction-mode pooler); events through NOTIFY: event-streams-processes.test.ts.
    app = await buildTestApp({
      env: { OPERATOR_TOKEN, EVENT_STREAMS_PER_CREDENTIAL: CAP, EVENT_STREAM_POLL_MS: POLL_MS, EVENTS_VIA_NOTIFY: false },
      runners: fakeRunners,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    a = await clientWithSuite(app, { G: [{ name: 'one', kind: 'api' }] });
    b = await clientWithSuite(app, { G: [{ name: 'two', kind: 'api' }] });
  });
  afterEach(async () => {
    for (const s of open.splice(0)) s.abort();
    await settle();
  });
  afterAll(async () => app?.close());

  it('opens at most 5 streams per credential; the 6th is a 429 with a message; tokens count as what minted them', async () => {
    const streams = [await connect('', key(a)), await connect('', key(a)), await connect('', key(a))];
    streams.push(await connect(await tokenFor(key(a))), await connect(await tokenFor(key(a))));
    for (const s of streams) {
      expect(s.status).toBe(200);
      await s.waitFor(/event: snapshot/);
    }
    const sixth = await connect('', key(a));
    expect(sixth.status).toBe(429);
    await sixth.closed;
    const body = JSON.parse(sixth.text());
    expect(body).toEqual({ code: 'TOO_MANY_REQUESTS', message: expect.stringMatching(/at most 5 at once per API key or user/) });
    expect((await connect(await tokenFor(key(a)))).status).toBe(429);
    // Another client, and the same client's user, have caps of their own.
    expect((await connect('', key(b))).status).toBe(200);
    const session = await login(app, a.email, a.password);
    expect((await connect('', bearer(session.accessToken))).status).toBe(200);
    // Closing one frees its place.
    streams[0]!.abort();
    for (let i = 0; i < 50; i += 1) {
      const again = await connect('', key(a));
      if (again.status === 200) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('a closed stream did not free its place');
  });

  it('a new API key ends the streams opened with the old key and refuses its unused tokens; a user’s stream stays', async () => {
    const viaKey = await connect('', key(a));
    const viaKeyToken = await connect(await tokenFor(key(a)));
    const unused = await tokenFor(key(a));
    const session = await login(app, a.email, a.password);
    const viaUser = await connect('', bearer(session.accessToken));
    const otherClient = await connect('', key(b));
    for (const s of [viaKey, viaKeyToken, viaUser, otherClient]) await s.waitFor(/event: snapshot/);

    app.sessionEvents.emit({ type: 'api-key-replaced', clientId: a.clientId });
    await viaKey.closed;
    await viaKeyToken.closed;
    expect(viaKey.text()).toMatch(/event: end\ndata: \{"reason":"The API key was replaced"\}/);
    expect(viaKeyToken.text()).toMatch(/event: end/);
    expect((await connect(unused)).status).toBe(401);
    await new Promise((r) => setTimeout(r, 100));
    expect(viaUser.text()).not.toMatch(/event: end/);
    expect(otherClient.text()).not.toMatch(/event: end/);
  });

  it('a logout or password reset ends that user’s streams, and tokens it minted, not the key’s', async () => {
    const session = await login(app, a.email, a.password);
    const viaUser = await connect('', bearer(session.accessToken));
    const viaUserToken = await connect(await tokenFor(bearer(session.accessToken)));
    const unused = await tokenFor(bearer(session.accessToken));
    const viaKey = await connect('', key(a));
    for (const s of [viaUser, viaUserToken, viaKey]) await s.waitFor(/event: snapshot/);

    app.sessionEvents.emit({ type: 'user-revoked', clientId: a.clientId, userId: a.userId });
    await viaUser.closed;
    await viaUserToken.closed;
    expect(viaUser.text()).toMatch(/event: end\ndata: \{"reason":"The session ended"\}/);
    expect((await connect(unused)).status).toBe(401);
    await new Promise((r) => setTimeout(r, 100));
    expect(viaKey.text()).not.toMatch(/event: end/);
  });

  it('on the embedded database never polls: one process, its own events reach the streams of their client only', async () => {
    if (TEST_DATABASE_URL) return; // PostgreSQL polls in this mode: the next test
    const hub = eventHubOf(app.engine.deps)!;
    const a1 = await connect('', key(a));
    const b1 = await connect('', key(b));
    for (const s of [a1, b1]) await s.waitFor(/event: snapshot/);
    expect((await app.inject({ url: '/test/run/one', headers: key(a) })).statusCode).toBe(200);
    await a1.waitFor(/event: test\ndata: .*"testName":"one"/);
    await new Promise((r) => setTimeout(r, POLL_MS * 3));
    expect(hub.polls).toBe(0);
    expect(b1.text()).not.toContain('"testName":"one"');
  });

  // The embedded database admits one process (its data-dir lock): nothing changes behind its bus, nothing to poll.
  it.skipIf(!TEST_DATABASE_URL)('polls the database once per interval for all streams, and fans each change out to its own client only', async () => {
    const hub = eventHubOf(app.engine.deps)!;
    const queued = await app.inject({ url: '/test/run/one', headers: key(a) });
    expect(queued.statusCode).toBe(200);
    const a1 = await connect('', key(a));
    const a2 = await connect(await tokenFor(key(a)));
    const b1 = await connect('', key(b));
    for (const s of [a1, a2, b1]) await s.waitFor(/event: snapshot/);
    expect(hub.openStreams).toBe(3);

    const before = hub.polls;
    const started = Date.now();
    await new Promise((r) => setTimeout(r, POLL_MS * 8));
    const polls = hub.polls - before;
    const intervals = (Date.now() - started) / POLL_MS;
    // One poll per interval for the three streams together (one each would be about 3 × intervals).
    expect(polls).toBeGreaterThanOrEqual(intervals - 3);
    expect(polls).toBeLessThanOrEqual(intervals + 1);

    // Another process's worker changes a row: only the database knows, and the shared poll tells a's streams.
    const runId = queued.json<{ runId: string }>().runId;
    await app.db.update(engineRunTests).set({ status: 'running', updatedAt: new Date(Date.now() + 1000) }).where(eq(engineRunTests.runId, runId));
    await a1.waitFor(/event: test\ndata: .*"testName":"one".*"status":"running"/);
    await a2.waitFor(/event: test\ndata: .*"testName":"one".*"status":"running"/);
    await new Promise((r) => setTimeout(r, POLL_MS * 2));
    expect(b1.text()).not.toContain('"testName":"one"');
  });

  it('stops polling when the last stream closes, and frees every place of a client that went away', async () => {
    const hub = eventHubOf(app.engine.deps)!;
    const s = await connect('', key(a));
    await s.waitFor(/event: snapshot/);
    s.abort();
    await settle();
    expect(hub.openStreams).toBe(0);
    const polls = hub.polls;
    await new Promise((r) => setTimeout(r, POLL_MS * 3));
    expect(hub.polls).toBe(polls);
    const streams = await Promise.all(Array.from({ length: CAP }, () => connect('', key(a))));
    expect(streams.map((x) => x.status)).toEqual(Array(CAP).fill(200));
  });
});
