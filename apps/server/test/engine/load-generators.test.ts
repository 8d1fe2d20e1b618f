import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as hdr from 'hdr-histogram-js';
import { decodeSamples, SAMPLES_ARTIFACT } from '@fullstop/engine/load';
import { engineLoadGenerators, engineRunTests } from '../../src/db/schema/index.ts';
import { runTestDir } from '../../src/lib/run-paths.ts';
import { dispatchLoadGenerators, reapStaleGenerators } from '../../src/features/load/load-generators.ts';
import { getRunTest } from '../../src/features/runs/run-repository.ts';
import pino from 'pino';
import { loadEnv } from '../../src/config/env.ts';
import { openPostgres } from '../../src/db/database.ts';
import { engineConfig } from '../../src/features/engine/config.ts';
import { createEngine } from '../../src/features/engine/engine-service.ts';
import { buildTestApp, createTestClient, TEST_DATABASE_URL, type TestClient } from '../helpers/app.ts';
import { importSuite, manifest, OPERATOR_TOKEN, runAndWait } from './helpers.ts';

/** A site on 127.0.0.1 that counts the requests it receives; each answer takes a little time. */
async function countingSite(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    res.on('error', () => undefined);
    setTimeout(() => res.end('hello'), 1 + (requests % 5));
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  server.on('connection', (socket) => socket.on('error', () => undefined));
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The nearest-rank p95 of the times, exactly. */
function exactP95(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(0.95 * sorted.length)) - 1]!;
}

describe('a load test run by several generators', () => {
  let app: FastifyInstance;
  let site: Awaited<ReturnType<typeof countingSite>>;
  let c: TestClient;

  beforeAll(async () => {
    site = await countingSite();
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true, ENGINE_REPORT_PDF: false } });
    await app.engine.startWorkers(2);
    c = await createTestClient(app, { website: site.url });
    const suite = manifest({
      Performance: [
        { name: 'spread load', kind: 'load', options: { connections: 5, durationSeconds: 1, generators: 2 }, thresholds: { maxFailedRate: 1 } },
        { name: 'too many', kind: 'load', options: { connections: 6, durationSeconds: 1, generators: 3 } },
      ],
    });
    const imported = await importSuite(app, c.clientId, { 'suite.json': suite });
    expect(imported.statusCode, imported.body).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
    await site?.close();
  });

  it('refuses a suite whose generators are out of range, naming the field', async () => {
    const other = await createTestClient(app, { website: site.url });
    const bad = await importSuite(app, other.clientId, { 'suite.json': manifest({ P: [{ name: 'x', kind: 'load', options: { generators: 17, connections: 50 } }] }) });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('options.generators');
    expect(bad.body).toContain('must be at most 16 generators');
    const few = await importSuite(app, other.clientId, { 'suite.json': manifest({ P: [{ name: 'x', kind: 'load', options: { generators: 4, connections: 2 } }] }) });
    expect(few.statusCode).toBe(422);
    expect(few.body).toContain('each generator needs at least one connection');
  });

  it('runs two generators on two workers, starting together; the merged result is every response of both', async () => {
    {
      const before = site.requests();
      const run = await runAndWait(app, c, 'spread load', 120_000);
      expect(run.status, JSON.stringify(run)).toBe('passed');
      const [rt] = await app.db.select().from(engineRunTests).where(eq(engineRunTests.runId, run.runId));
      if (rt?.summary?.kind !== 'load') throw new Error(`no load summary: ${JSON.stringify(rt)}`);
      const { load, generators } = rt.summary;

      // The site's own count is the merged total.
      expect(load.totalRequests).toBe(site.requests() - before);
      expect(load.totalRequests).toBeGreaterThan(0);
      expect(load.failedRequestsCount).toBe(0);

      const rows = await app.db.select().from(engineLoadGenerators).where(eq(engineLoadGenerators.runTestId, rt.id));
      expect(rows.map((r) => r.status).sort()).toEqual(['done', 'done']);
      // One common start for both, set once.
      expect(new Set(rows.map((r) => r.startAt?.getTime())).size).toBe(1);
      expect(generators?.map((g) => g.index)).toEqual([0, 1]);
      expect(generators?.every((g) => g.workerId === app.engine.deps.workerId && g.host)).toBe(true);
      expect(generators!.reduce((sum, g) => sum + g.requests, 0)).toBe(load.totalRequests);

      // The merged p95 is that of the union of both generators' raw samples (kept in their attempt folders).
      const dir = runTestDir(app.engine.deps.paths, c.clientId, run.runId, rt.id);
      const union: number[] = [];
      for (const g of [1, 2]) union.push(...decodeSamples(await readFile(path.join(dir, 'attempt-1', `generator-${g}`, SAMPLES_ARTIFACT))));
      expect(union).toHaveLength(load.totalRequests);
      const histogram = hdr.build({ bitBucketSize: 64, autoResize: true, numberOfSignificantValueDigits: 3, useWebAssembly: false });
      for (const t of union) histogram.recordValue(Math.max(1, Math.round(t * 1000)));
      expect(load.ninetyFifthPercentileResponseTime).toBe(histogram.getValueAtPercentile(95) / 1000);
      const exact = exactP95(union);
      expect(Math.abs(load.ninetyFifthPercentileResponseTime - exact)).toBeLessThanOrEqual(exact * 0.001 + 0.001);
      expect(load.averageResponseTime).toBeCloseTo(union.reduce((a, b) => a + b, 0) / union.length, 6);

      // The report says how many generators ran and where.
      const reports = rt.reportDir!;
      const html = await readFile(path.join(reports, (await readdir(reports)).find((f) => f.endsWith('.html'))!), 'utf8');
      expect(html).toContain('2 generators ran this test together');
      expect(html.match(new RegExp(app.engine.deps.workerId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'))?.length).toBeGreaterThanOrEqual(2);
    }
  }, 150_000);

  it('ends the test as an error that says what to do when not every generator finds a worker in time', async () => {
    app.engine.deps.config.loadGatherSeconds = 2;
    // Two workers for three generators: two are taken and wait, the third finds no worker before the gather time.
    {
      const run = await runAndWait(app, c, 'too many', 60_000);
      expect(run.status).toBe('error');
      const test = run.tests[0];
      expect(test.error).toBe(
        "only 2 of 3 load generators started within 2 s (each needs a free worker): start more workers (`fullstop worker`, or raise ENGINE_WORKERS) or lower the test's generators",
      );
    }
  }, 90_000);
});

describe('a load generator whose worker died', () => {
  it('is ended by the reaper, and the test with it, saying which worker stopped', async () => {
    const app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true, ENGINE_REPORT_PDF: false } });
    try {
      const c = await createTestClient(app);
      const suite = manifest({ P: [{ name: 'spread', kind: 'load', options: { connections: 4, generators: 2 } }] });
      expect((await importSuite(app, c.clientId, { 'suite.json': suite })).statusCode).toBe(201);
      const { runId } = (await app.inject({ url: '/test/run/spread', headers: { 'x-api-key': c.apiKey } })).json();
      const [queued] = await app.db.select().from(engineRunTests).where(eq(engineRunTests.runId, runId));
      const deps = app.engine.deps;
      expect(await dispatchLoadGenerators(deps, queued!)).toBe(true);
      // Both were taken and started, then their process was killed: heartbeats older than the stale time.
      const old = new Date(Date.now() - (deps.config.staleAfterSeconds + 5) * 1000);
      await app.db
        .update(engineLoadGenerators)
        .set({ status: 'running', workerId: 'gone-host:4242:abcdef', host: 'gone-host', startAt: old, heartbeatAt: old })
        .where(eq(engineLoadGenerators.runTestId, queued!.id));
      expect(await reapStaleGenerators(deps)).toBe(2);
      const rt = await getRunTest(app.db, queued!.id);
      expect(rt?.status).toBe('error');
      expect(rt?.error).toMatch(/^load generator 1 of 2 on gone-host:4242:abcdef failed \(and 1 more\): the worker running this generator stopped \(gone-host:4242:abcdef, last heartbeat .+\): its process was probably killed$/);
      expect(await reapStaleGenerators(deps)).toBe(0);
    } finally {
      await app.close();
    }
  });
});

/** Two processes' worker pools on one PostgreSQL queue (what the API and a `fullstop worker` do): one generator each. */
describe.skipIf(!TEST_DATABASE_URL)('load generators in two worker processes', () => {
  it('runs one generator in each and the report names both', { timeout: 150_000 }, async () => {
    const site = await countingSite();
    const app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true, ENGINE_REPORT_PDF: false } });
    if (app.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const other = openPostgres(app.database.url, 4);
    const second = createEngine({
      db: other.db,
      raw: other.raw,
      paths: app.paths,
      config: engineConfig(loadEnv({ NODE_ENV: 'test', ENGINE_ALLOW_PRIVATE_TARGETS: 'true' })),
      keys: app.keys,
      log: pino({ level: 'silent' }),
      demoClientId: null,
    });
    try {
      const c = await createTestClient(app, { website: site.url });
      const suite = manifest({ P: [{ name: 'spread', kind: 'load', options: { connections: 4, durationSeconds: 1, generators: 2 } }] });
      expect((await importSuite(app, c.clientId, { 'suite.json': suite })).statusCode).toBe(201);
      // One worker each: neither process can take both generators.
      await app.engine.startWorkers(1);
      await second.startWorkers(1);
      const before = site.requests();
      const run = await runAndWait(app, c, 'spread', 120_000);
      expect(run.status, JSON.stringify(run)).toBe('passed');
      const [rt] = await app.db.select().from(engineRunTests).where(eq(engineRunTests.runId, run.runId));
      if (rt?.summary?.kind !== 'load') throw new Error('no load summary');
      expect(rt.summary.load.totalRequests).toBe(site.requests() - before);
      expect(new Set(rt.summary.generators?.map((g) => g.workerId))).toEqual(new Set([app.engine.deps.workerId, second.deps.workerId]));
      const reports = rt.reportDir!;
      const html = await readFile(path.join(reports, (await readdir(reports)).find((f) => f.endsWith('.html'))!), 'utf8');
      expect(html).toContain('2 generators ran this test together');
      for (const id of [app.engine.deps.workerId, second.deps.workerId]) expect(html).toContain(id);
    } finally {
      await second.stop();
      await other.close();
      await app.close();
      await site.close();
    }
  });
});
