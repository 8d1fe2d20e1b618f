import type { ClientScheduleListResponse, OperatorSchedule, RunHistoryPage } from '@fullstop/contracts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientSchedules, engineRuns, engineRunTests } from '../src/db/schema/index.ts';
import { runScheduleTick } from '../src/features/schedules/schedule-tick.ts';
import { bearer, createTestClient, login, type TestClient } from './helpers/app.ts';
import { buildEngineApp, clientWithSuite, key, operator, waitForRunEnd } from './engine/helpers.ts';

const suite = {
  Frontend: [
    { name: 'home', kind: 'api' },
    { name: 'checkout', kind: 'api' },
  ],
  Security: [{ name: 'scan', kind: 'api' }],
};

describe('schedules: operators set them, clients see them, each tick runs once', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  const base = (c: TestClient) => `/operator/clients/${c.clientId}/schedules`;
  const add = (c: TestClient, payload: object) => app.inject({ method: 'POST', url: base(c), headers: operator, payload });
  const history = async (c: TestClient) => (await app.inject({ url: '/test/history', headers: key(c) })).json<RunHistoryPage>().runs;
  /** Pretends the schedule was last acted on long ago, so its latest cron time is due. */
  const dueNow = (id: string) => app.db.update(clientSchedules).set({ lastTickAt: new Date(Date.now() - 3 * 3_600_000) }).where(eq(clientSchedules.id, id));

  beforeAll(async () => {
    app = await buildEngineApp();
    a = await clientWithSuite(app, suite);
    b = await clientWithSuite(app, suite);
  });
  afterAll(async () => app?.close());

  it('refuses a bad cron, a bad time zone or an unknown scope, naming the field', async () => {
    for (const [payload, field] of [
      [{ cron: '61 * * * *', timezone: 'UTC', scope: { kind: 'all' } }, 'cron'],
      [{ cron: '* * * *', timezone: 'UTC', scope: { kind: 'all' } }, 'cron'],
      [{ cron: '*/5 * * * * *', timezone: 'UTC', scope: { kind: 'all' } }, 'cron'],
      [{ cron: '0 6 * * *', timezone: 'Mars/Olympus', scope: { kind: 'all' } }, 'timezone'],
      [{ cron: '0 6 * * *', timezone: 'UTC', scope: { kind: 'group', name: 'Nope' } }, 'scope.name'],
      [{ cron: '0 6 * * *', timezone: 'UTC', scope: { kind: 'test', name: 'nope' } }, 'scope.name'],
    ] as const) {
      const res = await add(a, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().field, JSON.stringify(payload)).toBe(field);
    }
  });

  it('lets an operator add, pause, resume, edit and delete; the client reads them with the next run', async () => {
    const res = await add(a, { cron: '0 6 * * 1-5', timezone: 'Europe/Paris', scope: { kind: 'group', name: 'Frontend' } });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<OperatorSchedule>();
    expect(created).toMatchObject({ cron: '0 6 * * 1-5', timezone: 'Europe/Paris', paused: false, scope: { kind: 'group', name: 'Frontend' } });
    const next = new Date(created.nextRunAt!);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    // 06:00 in Paris is 04:00 or 05:00 UTC, on a weekday.
    expect([4, 5]).toContain(next.getUTCHours());
    expect([1, 2, 3, 4, 5]).toContain(next.getUTCDay());

    const { accessToken: token } = await login(app, a.email, a.password);
    const mine = (await app.inject({ url: '/schedules', headers: bearer(token) })).json<ClientScheduleListResponse>();
    expect(mine.schedules).toHaveLength(1);
    expect(mine.schedules[0]).toMatchObject({ id: created.id, cron: '0 6 * * 1-5', timezone: 'Europe/Paris', paused: false });
    expect(mine.nextRunAt).toBe(mine.schedules[0]!.nextRunAt);

    const paused = await app.inject({ method: 'PATCH', url: `${base(a)}/${created.id}`, headers: operator, payload: { paused: true } });
    expect(paused.json()).toMatchObject({ paused: true, nextRunAt: null });
    expect((await app.inject({ url: '/schedules', headers: key(a) })).json<ClientScheduleListResponse>().nextRunAt).toBeNull();
    const edited = await app.inject({ method: 'PATCH', url: `${base(a)}/${created.id}`, headers: operator, payload: { paused: false, cron: '30 7 * * *', scope: { kind: 'test', name: 'scan' } } });
    expect(edited.json()).toMatchObject({ paused: false, cron: '30 7 * * *', scope: { kind: 'test', name: 'scan' } });
    const badEdit = await app.inject({ method: 'PATCH', url: `${base(a)}/${created.id}`, headers: operator, payload: { timezone: 'Nowhere/Land' } });
    expect(badEdit.json().field).toBe('timezone');

    expect((await app.inject({ method: 'DELETE', url: `${base(a)}/${created.id}`, headers: operator })).statusCode).toBe(200);
    expect((await app.inject({ url: '/schedules', headers: key(a) })).json().schedules).toEqual([]);
    expect((await app.inject({ method: 'DELETE', url: `${base(a)}/${created.id}`, headers: operator })).statusCode).toBe(404);
  });

  it('lets no client manage schedules, and shows a client only its own', async () => {
    const { accessToken: token } = await login(app, a.email, a.password);
    const payload = { cron: '0 6 * * *', timezone: 'UTC', scope: { kind: 'all' } };
    for (const headers of [bearer(token), key(a)]) {
      expect((await app.inject({ method: 'POST', url: base(a), headers, payload })).statusCode).toBe(403);
      expect((await app.inject({ url: base(a), headers })).statusCode).toBe(403);
    }
    const ofB = (await add(b, payload)).json<OperatorSchedule>();
    expect((await app.inject({ url: '/schedules', headers: key(a) })).json().schedules).toEqual([]);
    expect((await app.inject({ url: '/schedules', headers: key(b) })).json().schedules).toHaveLength(1);
    // A's id in the path never reaches B's schedule.
    expect((await app.inject({ method: 'PATCH', url: `${base(a)}/${ofB.id}`, headers: operator, payload: { paused: true } })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `${base(a)}/${ofB.id}`, headers: operator })).statusCode).toBe(404);
    await app.inject({ method: 'DELETE', url: `${base(b)}/${ofB.id}`, headers: operator });
  });

  it('queues exactly one run per tick, with the trigger "schedule"; a paused or deleted schedule never runs', async () => {
    const c = await clientWithSuite(app, suite);
    const s = (await add(c, { cron: '*/15 * * * *', timezone: 'America/New_York', scope: { kind: 'group', name: 'Frontend' } })).json<OperatorSchedule>();
    const paused = (await add(c, { cron: '* * * * *', timezone: 'UTC', scope: { kind: 'all' }, paused: true })).json<OperatorSchedule>();
    const deleted = (await add(c, { cron: '* * * * *', timezone: 'UTC', scope: { kind: 'all' } })).json<OperatorSchedule>();
    await dueNow(s.id);
    await dueNow(paused.id);
    await dueNow(deleted.id);
    await app.inject({ method: 'DELETE', url: `${base(c)}/${deleted.id}`, headers: operator });

    // Three hours of missed ticks (twelve of them), handled twice: one run.
    const now = new Date();
    const first = await runScheduleTick(app.engine.deps, now);
    const second = await runScheduleTick(app.engine.deps, now);
    expect(second.queued).toBe(0);
    expect(first.queued).toBeGreaterThanOrEqual(1);
    const runs = await history(c);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'schedule', requestedBy: null, testCount: 2 });
    const tests = await app.db.select().from(engineRunTests).where(eq(engineRunTests.runId, runs[0]!.runId));
    expect(tests.map((t) => t.testName).sort()).toEqual(['checkout', 'home']);

    const listed = (await app.inject({ url: base(c), headers: operator })).json<{ schedules: OperatorSchedule[] }>().schedules;
    expect(listed.find((x) => x.id === s.id)).toMatchObject({ lastRunId: runs[0]!.runId });
    expect(listed.find((x) => x.id === paused.id)).toMatchObject({ lastRunId: null, lastRunAt: null });
  });

  it('runs a tick that comes while another process handles it only once', async () => {
    const c = await clientWithSuite(app, suite);
    const s = (await add(c, { cron: '0 * * * *', timezone: 'UTC', scope: { kind: 'test', name: 'scan' } })).json<OperatorSchedule>();
    await dueNow(s.id);
    const now = new Date();
    const results = await Promise.all([runScheduleTick(app.engine.deps, now), runScheduleTick(app.engine.deps, now)]);
    expect(results.map((r) => r.queued).reduce((x, y) => x + y)).toBeGreaterThanOrEqual(1);
    const runs = await history(c);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'schedule', testCount: 1 });
  });

  it('does not run a tick from before the schedule existed or while it was paused', async () => {
    const c = await clientWithSuite(app, suite);
    const s = (await add(c, { cron: '* * * * *', timezone: 'UTC', scope: { kind: 'all' }, paused: true })).json<OperatorSchedule>();
    await dueNow(s.id);
    await app.inject({ method: 'PATCH', url: `${base(c)}/${s.id}`, headers: operator, payload: { paused: false } });
    await runScheduleTick(app.engine.deps, new Date());
    expect(await history(c)).toHaveLength(0);
    // The next minute's tick runs.
    await runScheduleTick(app.engine.deps, new Date(Date.now() + 60_000));
    expect(await history(c)).toHaveLength(1);
  });

  it('runs a scheduled run’s tests like any other run', { timeout: 90_000 }, async () => {
    const c = await clientWithSuite(app, suite);
    const s = (await add(c, { cron: '*/5 * * * *', timezone: 'Asia/Tokyo', scope: { kind: 'all' } })).json<OperatorSchedule>();
    await dueNow(s.id);
    await runScheduleTick(app.engine.deps);
    const [run] = await history(c);
    // The runs the tests above queued are cancelled, as an operator would: one worker would run their six tests first,
    // and on a loaded machine this run's would not start within its time.
    const waiting = await app.db.select({ id: engineRuns.id, clientId: engineRuns.clientId }).from(engineRuns).where(and(eq(engineRuns.status, 'queued'), ne(engineRuns.id, run!.runId)));
    for (const w of waiting) expect((await app.inject({ method: 'POST', url: `/operator/clients/${w.clientId}/runs/${w.id}/cancel`, headers: operator })).statusCode).toBe(200);
    await app.engine.startWorkers(1);
    const done = await waitForRunEnd(app, c.apiKey, run!.runId, 80_000);
    expect(done.status).toBe('passed');
    expect(done.tests.map((t: { testName: string }) => t.testName).sort()).toEqual(['checkout', 'home', 'scan']);
  });

  it('registers its one-a-minute tick with pg-boss’s cron when the scheduler starts', async () => {
    await app.engine.startScheduler({ cronMonitorIntervalSeconds: 1, pollSeconds: 1 });
    const rows = await app.db.execute(sql`SELECT name, cron, timezone FROM pgboss.schedule`);
    expect(Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows).toEqual([{ name: 'fullstop-schedule-tick', cron: '* * * * *', timezone: 'UTC' }]);
  });

  it('answers 404 for another client’s or an unknown client', async () => {
    const other = await createTestClient(app);
    expect((await app.inject({ url: '/operator/clients/nope/schedules', headers: operator })).statusCode).toBe(404);
    expect((await app.inject({ method: 'PATCH', url: `${base(other)}/nope`, headers: operator, payload: { paused: true } })).statusCode).toBe(404);
  });
});
