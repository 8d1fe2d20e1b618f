import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VIEWER_READ_ONLY } from '@fullstop/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, engineAttempts, engineRunTests, engineRuns, uploads } from '../src/db/schema/index.ts';
import { runDir } from '../src/lib/run-paths.ts';
import { RetentionService } from '../src/features/retention/service.ts';
import { uploadedAppFile } from '../src/features/uploads/storage.ts';
import { bearer, createTestClient, login, type TestClient } from './helpers/app.ts';
import { teamUser } from './helpers/team.ts';
import { fakeApk, multipart } from './helpers/zip.ts';
import { buildEngineApp, clientWithSuite, operator, runAndWait, type SuiteTest, useEngineApp } from './engine/helpers.ts';

const suite: Record<string, SuiteTest[]> = {
  Frontend: [
    { name: 'home', kind: 'browser', options: { outcome: 'pass' } },
    { name: 'checkout', kind: 'browser', options: { outcome: 'fail' } },
  ],
};

describe('retention: old runs and builds are deleted, each test’s latest run is kept', () => {
  const fixture = useEngineApp(2, async (app) => ({ a: await clientWithSuite(app, suite), b: await clientWithSuite(app, suite) }));

  /** Moves a run (and its tests) `days` into the past, as if it had finished then. */
  const backdate = async (runId: string, days: number) => {
    const when = sql`now() - make_interval(days => ${days})`;
    await fixture.app.db.update(engineRuns).set({ finishedAt: when, createdAt: when }).where(eq(engineRuns.id, runId));
    await fixture.app.db.update(engineRunTests).set({ finishedAt: when, createdAt: when }).where(eq(engineRunTests.runId, runId));
  };
  const runIdsOf = async (clientId: string) =>
    (await fixture.app.db.select({ id: engineRuns.id }).from(engineRuns).where(eq(engineRuns.clientId, clientId))).map((r) => r.id).sort();
  const auditOf = async (clientId: string, type: string) =>
    fixture.app.db.select().from(auditEvents).where(and(eq(auditEvents.clientId, clientId), eq(auditEvents.type, type)));
  const run = async (c: TestClient, scope = 'all') => (await runAndWait(fixture.app, c, scope)).runId as string;

  it('deletes runs past the retention with their rows and folders, keeps recent runs and each test’s latest run', async () => {
    const r1 = await run(fixture.a);
    const r2 = await run(fixture.a);
    const r3 = await run(fixture.a, 'home');
    const recent = await run(fixture.a, 'home');
    await backdate(r1, 300);
    await backdate(r2, 200);
    await backdate(r3, 150);
    // `recent` holds home's latest result; r2 holds checkout's latest, however old. r3 is old and superseded.
    for (const id of [r1, r2, r3]) expect(existsSync(runDir(fixture.app.paths, fixture.a.clientId, id))).toBe(true);
    const r1Tests = (await fixture.app.db.select({ id: engineRunTests.id }).from(engineRunTests).where(eq(engineRunTests.runId, r1))).map((t) => t.id);

    const swept = await fixture.app.retention.sweep();
    expect(swept.runs).toBe(2);
    expect(await runIdsOf(fixture.a.clientId)).toEqual([r2, recent].sort());
    expect(existsSync(runDir(fixture.app.paths, fixture.a.clientId, r1))).toBe(false);
    expect(existsSync(runDir(fixture.app.paths, fixture.a.clientId, r3))).toBe(false);
    expect(existsSync(runDir(fixture.app.paths, fixture.a.clientId, r2))).toBe(true);
    expect(await fixture.app.db.select().from(engineAttempts).where(inArray(engineAttempts.runTestId, r1Tests))).toEqual([]);

    // What the client sees: the deleted run is gone, the latest results are still there.
    expect((await fixture.app.inject({ url: `/test/runs/${r1}`, headers: { 'x-api-key': fixture.a.apiKey } })).statusCode).toBe(404);
    const latest = await fixture.app.inject({ url: '/test/latest', headers: { 'x-api-key': fixture.a.apiKey } });
    expect(latest.statusCode, latest.body).toBe(200);
    const byName = Object.fromEntries((latest.json().tests as { testName: string; runId: string }[]).map((t) => [t.testName, t.runId]));
    expect(byName).toEqual({ home: recent, checkout: r2 });

    const audited = await auditOf(fixture.a.clientId, 'retention.deleted');
    expect(audited).toHaveLength(1);
    expect(audited[0]!.details).toMatchObject({ what: 'runs', count: 2 });
    expect(((audited[0]!.details as { runIds: string[] }).runIds).sort()).toEqual([r1, r3].sort());

    // Nothing more to do: a second sweep deletes and audits nothing.
    expect(await fixture.app.retention.sweep()).toMatchObject({ runs: 0, uploads: 0 });
    expect(await auditOf(fixture.a.clientId, 'retention.deleted')).toHaveLength(1);

    // Once checkout has a newer result, the old run that held it goes too.
    const newest = await run(fixture.a, 'checkout');
    expect((await fixture.app.retention.sweep()).runs).toBe(1);
    expect(await runIdsOf(fixture.a.clientId)).toEqual([recent, newest].sort());
  }, 120_000);

  it('applies each client’s own retention, set by an operator', async () => {
    const old = await run(fixture.b);
    await run(fixture.b);
    await backdate(old, 200);
    const put = (days: unknown) => fixture.app.inject({ method: 'PUT', url: `/operator/clients/${fixture.b.clientId}/retention`, headers: operator, payload: { days } });
    expect((await put(3)).statusCode).toBe(400);
    expect((await put(4000)).statusCode).toBe(400);
    expect((await put(1.5)).statusCode).toBe(400);
    const set = await put(365);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ days: 365, isDefault: false, defaultDays: 90 });

    const seen = await fixture.app.inject({ url: `/clientProfile/retention/${fixture.b.clientId}`, headers: { 'x-api-key': fixture.b.apiKey } });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ days: 365, isDefault: false });
    expect(seen.json().deletes).toMatch(/runs/i);
    expect(seen.json().keeps).toMatch(/latest run/);
    expect((await fixture.app.inject({ url: `/clientProfile/retention/${fixture.b.clientId}`, headers: { 'x-api-key': fixture.a.apiKey } })).statusCode).toBe(404);
    expect((await fixture.app.inject({ method: 'PUT', url: `/operator/clients/${fixture.b.clientId}/retention`, headers: { 'x-api-key': fixture.b.apiKey }, payload: { days: 7 } })).statusCode).toBe(403);

    await fixture.app.retention.sweep();
    expect(await runIdsOf(fixture.b.clientId)).toContain(old);
    expect(await auditOf(fixture.b.clientId, 'retention.deleted')).toHaveLength(0);

    expect((await put(180)).statusCode).toBe(200);
    await fixture.app.retention.sweep();
    expect(await runIdsOf(fixture.b.clientId)).not.toContain(old);
    expect(existsSync(runDir(fixture.app.paths, fixture.b.clientId, old))).toBe(false);

    // Back to the default.
    const reset = await put(null);
    expect(reset.json()).toMatchObject({ days: 90, isDefault: true });
    expect((await auditOf(fixture.b.clientId, 'retention.changed')).map((e) => e.details)).toContainEqual({ from: 365, to: 180 });
  }, 120_000);

  it('deletes old builds’ records but keeps the current build and its file', async () => {
    const c = await createTestClient(fixture.app);
    const auth = bearer((await login(fixture.app, c.email, c.password)).accessToken);
    for (const n of ['one', 'two', 'three']) {
      const body = multipart(`app-${n}.apk`, await fakeApk(n));
      const res = await fixture.app.inject({ method: 'POST', url: `/upload/android/${c.clientId}`, headers: { ...auth, ...body.headers }, payload: body.payload });
      expect(res.statusCode, res.body).toBe(200);
    }
    await fixture.app.db.update(uploads).set({ createdAt: sql`now() - interval '200 days'` }).where(eq(uploads.clientId, c.clientId));
    const swept = await fixture.app.retention.sweep();
    expect(swept.uploads).toBe(2);
    expect(await fixture.app.db.select().from(uploads).where(eq(uploads.clientId, c.clientId))).toHaveLength(1);
    expect(existsSync(uploadedAppFile(fixture.app.paths, c.clientId, 'android'))).toBe(true);
    const profile = (await fixture.app.inject({ url: `/clientProfile/${c.clientId}`, headers: auth })).json();
    expect(profile.androidAppPath).toBe('android/app-three.apk');
    expect((await auditOf(c.clientId, 'retention.deleted'))[0]!.details).toMatchObject({ what: 'uploads', count: 2, android: 2 });
  });

  it('two sweeps at once delete each run once, and audit each deletion once', async () => {
    const c = await clientWithSuite(fixture.app, { G: [{ name: 'only', kind: 'browser', options: { outcome: 'pass' } }] });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await run(c));
    for (const [i, id] of ids.slice(0, 3).entries()) await backdate(id, 100 + i);
    const sweeper = () => new RetentionService({ db: fixture.app.db, paths: fixture.app.paths, log: fixture.app.log, defaultDays: 90, batchSize: 1 });
    const results = await Promise.all([sweeper().sweep(), sweeper().sweep(), sweeper().sweep()]);
    expect(results.reduce((s, r) => s + r.runs, 0)).toBe(3);
    expect(await runIdsOf(c.clientId)).toEqual([ids[3]]);
    for (const id of ids.slice(0, 3)) expect(existsSync(runDir(fixture.app.paths, c.clientId, id))).toBe(false);
    const counts = (await auditOf(c.clientId, 'retention.deleted')).map((e) => (e.details as { count: number }).count);
    expect(counts.reduce((s, n) => s + n, 0)).toBe(3);
  }, 120_000);

  it('removes a run folder whose row is gone (a crash between rows and files) on the next sweep', async () => {
    const orphan = runDir(fixture.app.paths, fixture.a.clientId, '00000000-0000-4000-8000-000000000001');
    await mkdir(orphan, { recursive: true });
    await writeFile(path.join(orphan, 'attempt-1.log'), 'left over');
    // A fresh folder is left alone (a run being set up); an old one goes.
    await fixture.app.retention.sweep();
    expect(existsSync(orphan)).toBe(true);
    const past = new Date(Date.now() - 2 * 3600 * 1000);
    const { utimes } = await import('node:fs/promises');
    await utimes(orphan, past, past);
    expect((await fixture.app.retention.sweep()).orphanFolders).toBe(1);
    expect(existsSync(orphan)).toBe(false);
  });
});

describe('a client deletes its uploaded build', () => {
  let app: FastifyInstance;
  let a: TestClient;
  let b: TestClient;
  let ownerA: Record<string, string>;

  beforeAll(async () => {
    app = await buildEngineApp(0);
    a = await createTestClient(app);
    b = await createTestClient(app);
    ownerA = bearer((await login(app, a.email, a.password)).accessToken);
    const body = multipart('shop.apk', await fakeApk('shop'));
    expect((await app.inject({ method: 'POST', url: `/upload/android/${a.clientId}`, headers: { ...ownerA, ...body.headers }, payload: body.payload })).statusCode).toBe(200);
  });
  afterAll(async () => app?.close());

  const del = (platform: string, clientId: string, headers: Record<string, string>) =>
    app.inject({ method: 'DELETE', url: `/upload/${platform}/${clientId}`, headers });

  it('another client gets 404 and a viewer 403; the build stays', async () => {
    const ownerB = bearer((await login(app, b.email, b.password)).accessToken);
    const other = await del('android', a.clientId, ownerB);
    expect(other.statusCode).toBe(404);
    const viewer = bearer((await teamUser(app, a.clientId, 'viewer')).accessToken);
    const refused = await del('android', a.clientId, viewer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(VIEWER_READ_ONLY);
    expect(refused.json().message).toMatch(/delete builds/);
    expect(existsSync(uploadedAppFile(app.paths, a.clientId, 'android'))).toBe(true);
  });

  it('an owner deletes the current build: file removed, no build in the profile, audited; then 404', async () => {
    const member = bearer((await teamUser(app, a.clientId, 'member')).accessToken);
    expect((await del('ios', a.clientId, member)).statusCode).toBe(404);
    const res = await del('android', a.clientId, member);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('shop.apk deleted');
    expect(existsSync(uploadedAppFile(app.paths, a.clientId, 'android'))).toBe(false);
    const profile = (await app.inject({ url: `/clientProfile/${a.clientId}`, headers: ownerA })).json();
    expect(profile.androidAppPath).toBeNull();
    expect(profile.androidAppUploaded).toBeNull();
    expect(await app.db.select().from(uploads).where(eq(uploads.clientId, a.clientId))).toHaveLength(0);
    const audited = await app.db.select().from(auditEvents).where(and(eq(auditEvents.clientId, a.clientId), eq(auditEvents.type, 'upload.deleted')));
    expect(audited).toHaveLength(1);
    expect(audited[0]!.details).toMatchObject({ platform: 'android' });
    expect((await del('android', a.clientId, ownerA)).statusCode).toBe(404);
  });
});
