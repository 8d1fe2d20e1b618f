import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { engineAttempts, engineRunTests } from '../../src/db/schema/index.ts';
import { Capacity } from '../../src/features/queue/capacity.ts';
import { fetchFairJob } from '../../src/features/queue/job-repository.ts';
import { buildTestApp } from '../helpers/app.ts';
import { FAKE_RUNNERS_MODULE, fakeRunners } from './fixtures/fake-runners.ts';
import { clientWithSuite, key, OPERATOR_TOKEN, waitForRunEnd } from './helpers.ts';

/**
 * The light lane (decision 0091): room on top of the capacity, and workers of its own, that only light tests (a
 * quarter of a core at most) may use, so that another client's API test starts within seconds while long browser
 * tests hold the capacity and every usual worker. The fake runners sleep; what is checked is when attempts started.
 */
async function appWithLane(capacity: number, lane: number) {
  return buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_CAPACITY: capacity, ENGINE_LIGHT_LANE: lane }, runners: fakeRunners, runnersModule: FAKE_RUNNERS_MODULE });
}

type Span = { name: string; queued: number; start: number; end: number };

/** Each test of these runs as a time span: queued, its attempt's start and end. */
async function spansOf(app: FastifyInstance, runIds: string[]): Promise<Span[]> {
  const rows = await app.db.select().from(engineRunTests).where(inArray(engineRunTests.runId, runIds));
  const attempts = await app.db.select().from(engineAttempts).where(inArray(engineAttempts.runTestId, rows.map((r) => r.id)));
  return rows.map((r) => {
    const a = attempts.find((x) => x.runTestId === r.id)!;
    return { name: r.testName, queued: r.createdAt.getTime(), start: a.startedAt.getTime(), end: a.finishedAt!.getTime() };
  });
}

/** Waits until `count` attempts of these runs have started. */
async function untilStarted(app: FastifyInstance, runIds: string[], count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const started = await app.db
      .select({ id: engineAttempts.id })
      .from(engineAttempts)
      .innerJoin(engineRunTests, eq(engineRunTests.id, engineAttempts.runTestId))
      .where(inArray(engineRunTests.runId, runIds));
    if (started.length >= count) return;
    if (Date.now() > deadline) throw new Error(`fewer than ${count} attempts started`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const overlap = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
const slow = (name: string, kind: string, sleepMs: number, options: Record<string, unknown> = {}) => ({ name, kind, options: { sleepMs, ...options } });
/** A test on 6 cells: heavier than 2 cores, it runs alone in the shared room (decision 0078). */
const sixCells = { engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'] };

/**
 * Client A's heavy tests, each run on its own in this order, started on `workers` workers; then, once `heavyAtOnce`
 * of them run, client B's API test. Answers their spans in A's order, and B's.
 */
async function lightBesideHeavy(app: FastifyInstance, heavy: ReturnType<typeof slow>[], workers: number, heavyAtOnce: number) {
  const a = await clientWithSuite(app, { Frontend: heavy });
  const b = await clientWithSuite(app, { API: [slow('health', 'api', 200)] });
  const heavyRuns: string[] = [];
  for (const t of heavy) heavyRuns.push((await app.inject({ url: `/test/run/${t.name}`, headers: key(a) })).json<{ runId: string }>().runId);
  await app.engine.startWorkers(workers);
  await untilStarted(app, heavyRuns, heavyAtOnce);
  const lightRun = (await app.inject({ url: '/test/run/health', headers: key(b) })).json<{ runId: string }>().runId;
  expect((await waitForRunEnd(app, b.apiKey, lightRun, 30_000)).status).toBe('passed');
  for (const id of heavyRuns) expect((await waitForRunEnd(app, a.apiKey, id, 60_000)).status).toBe('passed');
  const spans = await spansOf(app, [...heavyRuns, lightRun]);
  return { light: spans.find((s) => s.name === 'health')!, heavy: heavy.map((t) => spans.find((s) => s.name === t.name)!) };
}

describe('the light lane', () => {
  it('picks up another client’s API test within seconds while a test heavier than the capacity holds it, and keeps heavy tests out of its room', { timeout: 60_000 }, async () => {
    // A lane of a whole core: room enough for a browser test (a core), were it allowed in.
    const app = await appWithLane(2, 1);
    try {
      const { light, heavy } = await lightBesideHeavy(app, [slow('everywhere', 'browser', 5000, sixCells), slow('home', 'browser', 3000)], 2, 1);
      const [everywhere, home] = heavy as [Span, Span];
      // The API test went beside the test that holds the capacity, within seconds of being queued (without the
      // lane it waited for the test's end, 5 s).
      expect(light.start - light.queued).toBeLessThan(3000);
      expect(light.start).toBeLessThan(everywhere.end);
      // The other browser test waited for it: a free worker and the lane's core were not for it.
      expect(overlap(everywhere, home)).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('starts an API test on a worker of its own while heavy tests hold every usual worker', { timeout: 60_000 }, async () => {
    // 4 cores' worth, 2 workers: two browser tests (a core each) hold both workers, the third waits for one.
    const app = await appWithLane(4, 0.5);
    try {
      const { light, heavy } = await lightBesideHeavy(app, [slow('home', 'browser', 4000), slow('checkout', 'browser', 4000), slow('search', 'browser', 4000)], 2, 2);
      const [first, second, third] = heavy as [Span, Span, Span];
      expect(overlap(first, second)).toBe(true);
      // The lane's workers take no heavy test.
      expect(third.start).toBeGreaterThanOrEqual(Math.min(first.end, second.end));
      expect(light.start - light.queued).toBeLessThan(3000);
      expect(light.start).toBeLessThan(Math.min(first.end, second.end));
    } finally {
      await app.close();
    }
  });

  it('lets a light test pass the first job in the order once it has waited its turn only inside the lane’s own room', async () => {
    const app = await appWithLane(1.5, 0.25);
    try {
      const client = await clientWithSuite(app, { All: [{ name: 'home', kind: 'browser' }, { name: 'health', kind: 'api' }, { name: 'auth', kind: 'api' }] });
      await app.inject({ url: '/test/run/all', headers: key(client) });
      const capacity = new Capacity(1.5, { workerId: 'here:1:abc', staleAfterSeconds: 30, browserWorkers: 1, lightLane: 0.25 });
      // A browser test runs: half a core of the shared room is left, the browser test first in the order does not fit.
      capacity.hold('browser');
      const waited = () => ({ ...capacity.room()!, headWaitSeconds: 0 });
      // It has waited its turn (0 s here), yet an API test still goes, in the lane's room, which it could never use.
      expect((await fetchFairJob(app.db, waited()))?.kind).toBe('api');
      capacity.hold('api');
      // The lane is full: the next API test would take the shared room the browser test waits for.
      expect(await fetchFairJob(app.db, waited())).toBeNull();
      // Before its turn, the shared room is anyone's that fits it.
      expect((await fetchFairJob(app.db, capacity.room()))?.kind).toBe('api');
    } finally {
      await app.close();
    }
  });
});
