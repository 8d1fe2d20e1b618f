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
import { runTestDir } from '../../src/features/engine/runs/run-paths.ts';
import { buildTestApp, createTestClient, type TestClient } from '../helpers/app.ts';
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
