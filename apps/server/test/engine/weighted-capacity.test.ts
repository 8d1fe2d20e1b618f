import os from 'node:os';
import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { engineAttempts, engineRunTests } from '../../src/db/schema/index.ts';
import { Capacity } from '../../src/features/queue/capacity.ts';
import { fetchFairJob } from '../../src/features/queue/job-repository.ts';
import { buildTestApp } from '../helpers/app.ts';
import { FAKE_RUNNERS_MODULE, fakeRunners } from './fixtures/fake-runners.ts';
import { clientWithSuite, key, OPERATOR_TOKEN, waitForRunEnd } from './helpers.ts';

/**
 * Weighted concurrency (queue/capacity.ts, docs/decisions/0069): a worker process starts a test only while the
 * weights of its kind and of those running leave room in its capacity (cores' worth of work). The fake runners
 * sleep; what is checked is which attempts ran at the same time.
 */
async function appWithCapacity(capacity: number) {
  return buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_CAPACITY: capacity }, runners: fakeRunners, runnersModule: FAKE_RUNNERS_MODULE });
}

type Span = { name: string; kind: string; start: number; end: number };

/** Runs the suite once with `workers` workers; answers each test's attempt as a time span. */
async function spansOfRun(capacity: number, workers: number, tests: { name: string; kind: string; options?: Record<string, unknown> }[]): Promise<Span[]> {
  const app = await appWithCapacity(capacity);
  try {
    const client = await clientWithSuite(app, { All: tests });
    const runId = (await app.inject({ url: '/test/run/all', headers: key(client) })).json<{ runId: string }>().runId;
    await app.engine.startWorkers(workers);
    expect((await waitForRunEnd(app, client.apiKey, runId, 90_000)).status).toBe('passed');
    const rows = await app.db.select().from(engineRunTests).where(inArray(engineRunTests.runId, [runId]));
    const attempts = await app.db.select().from(engineAttempts).where(inArray(engineAttempts.runTestId, rows.map((r) => r.id)));
    return rows.map((r) => {
      const a = attempts.find((x) => x.runTestId === r.id)!;
      return { name: r.testName, kind: r.kind, start: a.startedAt.getTime(), end: a.finishedAt!.getTime() };
    });
  } finally {
    await app.close();
  }
}

const overlap = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
const slow = (name: string, kind: string, sleepMs: number) => ({ name, kind, options: { sleepMs } });

describe('weighted capacity', () => {
  it('runs two browser tests (a core each) one after the other in 1.5 cores, and API tests beside them', { timeout: 120_000 }, async () => {
    const spans = await spansOfRun(1.5, 4, [slow('home', 'browser', 2500), slow('checkout', 'browser', 2500), slow('health', 'api', 200), slow('auth', 'api', 200)]);
    const [home, checkout] = spans.filter((s) => s.kind === 'browser') as [Span, Span];
    expect(overlap(home, checkout)).toBe(false);
    // The first free room after a browser test went to the light tests queued behind the second one.
    const first = home.start < checkout.start ? home : checkout;
    for (const api of spans.filter((s) => s.kind === 'api')) expect(api.start).toBeLessThan(first.end);
  });

  it('without a capacity (0) runs them at once, as many as there are workers', { timeout: 120_000 }, async () => {
    const spans = await spansOfRun(0, 4, [slow('home', 'browser', 2500), slow('checkout', 'browser', 2500)]);
    expect(overlap(spans[0]!, spans[1]!)).toBe(true);
  });

  it('runs a test heavier than the whole capacity alone', { timeout: 120_000 }, async () => {
    const spans = await spansOfRun(0.5, 4, [slow('home', 'browser', 2000), slow('health', 'api', 200), slow('auth', 'security-checks', 200)]);
    const browser = spans.find((s) => s.kind === 'browser')!;
    for (const light of spans.filter((s) => s !== browser)) expect(overlap(light, browser)).toBe(false);
  });

  it('runs a browser test on 6 cells alone on 2 cores, and one on a single cell beside an API test', { timeout: 120_000 }, async () => {
    const matrix = { engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'] };
    const spans = await spansOfRun(2, 4, [
      { name: 'everywhere', kind: 'browser', options: { sleepMs: 2500, ...matrix } },
      slow('home', 'browser', 2500),
      slow('health', 'api', 1500),
    ]);
    const everywhere = spans.find((s) => s.name === 'everywhere')!;
    for (const other of spans.filter((s) => s !== everywhere)) expect(overlap(other, everywhere)).toBe(false);
    // One cell keeps its weight (a core): the API test goes beside it.
    expect(overlap(spans.find((s) => s.name === 'home')!, spans.find((s) => s.name === 'health')!)).toBe(true);
  });

  it('runs a paced load test beside a browser test in 1.25 cores, and one as fast as it is answered after it (decision 0088)', { timeout: 120_000 }, async () => {
    const load = { requests: [{ path: '/' }], connections: 10, durationSeconds: 4, sleepMs: 1500 };
    const spans = await spansOfRun(1.25, 4, [
      slow('home', 'browser', 2500),
      { name: 'paced', kind: 'load', options: { ...load, rate: 50 } },
      { name: 'flat out', kind: 'load', options: load },
    ]);
    const [home, paced, flatOut] = ['home', 'paced', 'flat out'].map((name) => spans.find((s) => s.name === name)!) as [Span, Span, Span];
    expect(overlap(home, paced)).toBe(true);
    expect(overlap(home, flatOut)).toBe(false);
  });

  it('takes no kind that runs one per machine while one runs on this host, in this process or another', async () => {
    const app = await appWithCapacity(8);
    try {
      const client = await clientWithSuite(app, { All: [{ name: 'a', kind: 'browser' }, { name: 'b', kind: 'browser' }, { name: 'c', kind: 'api' }] });
      await app.inject({ url: '/test/run/all', headers: key(client) });
      const workerId = `${os.hostname()}:1:abc`;
      // Browser tests stand in for Lighthouse: the room says which kinds are one per machine.
      const room = (busyHere: string[]) => ({ ...new Capacity(8, { workerId, staleAfterSeconds: 30, browserWorkers: 1 }).room()!, onePerMachineJson: '["browser"]', busyHereJson: JSON.stringify(busyHere) });

      const first = await fetchFairJob(app.db, room([]));
      expect(first?.kind).toBe('browser');
      // This process runs one: the other browser test waits, the API test goes.
      expect((await fetchFairJob(app.db, room(['browser'])))?.kind).toBe('api');
      expect(await fetchFairJob(app.db, room(['browser']))).toBeNull();

      // Another process on this host runs one (its attempt row, heartbeat fresh): still none here.
      await app.db.insert(engineAttempts).values({ runTestId: first!.data.runTestId, attempt: 1, workerId: `${os.hostname()}:2:def` });
      expect(await fetchFairJob(app.db, room([]))).toBeNull();
      // On another host it holds nothing here.
      expect((await fetchFairJob(app.db, { ...room([]), workerId: 'elsewhere:1:abc' }))?.kind).toBe('browser');
    } finally {
      await app.close();
    }
  });

  it('takes the first job in the fair order that fits the room left', async () => {
    const app = await appWithCapacity(1.5);
    try {
      const client = await clientWithSuite(app, { All: [{ name: 'home', kind: 'browser' }, { name: 'load', kind: 'load' }, { name: 'health', kind: 'api' }] });
      await app.inject({ url: '/test/run/all', headers: key(client) });
      const capacity = new Capacity(1.5, { workerId: 'here:1:abc', staleAfterSeconds: 30, browserWorkers: 1 });
      // Longest first (browser 15 s typical, load 5, api 1): the browser test (1 core), then not the load test (1)
      // but the API test (0.25) fits beside it.
      const taken: string[] = [];
      for (let job = await fetchFairJob(app.db, capacity.room()); job; job = await fetchFairJob(app.db, capacity.room())) {
        taken.push(job.kind!);
        capacity.hold(job.kind);
      }
      expect(taken).toEqual(['browser', 'api']);
      expect(capacity.inUse()).toBe(1.25);
      // Each Playwright worker a browser test is given adds to its weight.
      expect(new Capacity(4, { workerId: 'here:1:abc', staleAfterSeconds: 30, browserWorkers: 2 }).weightOf('browser')).toBe(1.75);
    } finally {
      await app.close();
    }
  });

  it('passes over the first job in the order for lighter ones only until it has waited its turn', async () => {
    const app = await appWithCapacity(1);
    try {
      const client = await clientWithSuite(app, { All: [{ name: 'home', kind: 'browser' }, { name: 'health', kind: 'api' }, { name: 'auth', kind: 'api' }] });
      await app.inject({ url: '/test/run/all', headers: key(client) });
      const capacity = new Capacity(1, { workerId: 'here:1:abc', staleAfterSeconds: 30, browserWorkers: 1 });
      const release = capacity.hold('security-checks');
      // A light test runs here: the browser test (first in the order, a core) does not fit, an API test does.
      expect((await fetchFairJob(app.db, capacity.room()))?.kind).toBe('api');
      capacity.hold('api');
      // Once the browser test has waited longer than the head wait (0 s here), nothing lighter passes it.
      expect(await fetchFairJob(app.db, { ...capacity.room()!, headWaitSeconds: 0 })).toBeNull();
      release();
      expect(await fetchFairJob(app.db, { ...capacity.room()!, headWaitSeconds: 0 })).toBeNull();
      // When the room is there, it goes first.
      expect((await fetchFairJob(app.db, { ...new Capacity(1, { workerId: 'here:1:abc', staleAfterSeconds: 30, browserWorkers: 1 }).room()!, headWaitSeconds: 0 }))?.kind).toBe('browser');
    } finally {
      await app.close();
    }
  });
});
