import { rmSync } from 'node:fs';
import path from 'node:path';
import type { EvidenceListResponse, OpsSystem, ReportGroups, TestEvent } from '@fullstop/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_RUNNERS_MODULE } from './engine/fixtures/fake-runners.ts';
import { ApiProcess, type ClusterProcess, WorkerProcess } from './helpers/cluster.ts';
import { TEST_DATABASE_URL } from './helpers/database.ts';
import { startS3, type TestS3 } from './helpers/s3.ts';
import { scratchDatabase } from './helpers/scratch-database.ts';

const OPERATOR_TOKEN = 'fso_cluster-operator-token-0123456789abcdef';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
/** How late a worker's change may reach an event stream on another process (the figure). */
const EVENT_LATENCY_MS = 500;
const TERMINAL = ['passed', 'failed', 'error', 'cancelled'];

/** The suite: failing and passing browser tests (one leaves a trace and screenshots), a load test, a scan, and a
 * slow API test, so that tests are running on both workers at once. */
const SUITE = {
  version: 1,
  groups: [
    {
      name: 'Frontend',
      tests: [
        { name: 'checkout', kind: 'browser', options: { outcome: 'fail', evidence: 'files', sleepMs: 300 } },
        { name: 'marketing pages', kind: 'browser', options: { outcome: 'pass', sleepMs: 300 } },
      ],
    },
    { name: 'Performance', tests: [{ name: 'home load', kind: 'load' }] },
    { name: 'Security', tests: [{ name: 'zap scan', kind: 'security-scan' }] },
    { name: 'API', tests: [{ name: 'health', kind: 'api', options: { sleepMs: 1500 } }] },
  ],
};

type RunDetail = { status: string; tests: { runTestId: string; testName: string; status: string }[] };

/**
 * An open event stream (GET /test/events), each `test` event kept with the moment it arrived. Read as text with
 * fetch, as the portal does; an `error` listener from birth is the reader's catch.
 */
function openEvents(base: string, apiKey: string) {
  const ac = new AbortController();
  const events: { at: number; data: TestEvent }[] = [];
  let buffer = '';
  const opened = fetch(`${base}/test/events`, { headers: { 'x-api-key': apiKey }, signal: ac.signal }).then(async (res) => {
    if (res.status !== 200 || !res.body) throw new Error(`event stream: ${res.status} ${await res.text()}`);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          const at = Date.now();
          buffer += decoder.decode(value, { stream: true });
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const type = /^event: (.+)$/m.exec(block)?.[1];
            const data = /^data: (.+)$/m.exec(block)?.[1];
            if (type === 'test' && data) events.push({ at, data: JSON.parse(data) as TestEvent });
          }
        }
      } catch {
        // Aborted at the end of the test.
      }
    })();
  });
  return { opened, events, close: () => ac.abort() };
}

/**
 * A multi-process installation as docs/deployment.md describes it: two `fullstop serve` processes (ENGINE_WORKERS=0,
 * each its own DATA_DIR) and two `fullstop worker --concurrency 2` processes, one PostgreSQL database, one
 * S3-compatible store (s3rver, ARTIFACT_STORE=s3), shared SERVER_KEY and OPERATOR_TOKEN. The runners are the engine tests' fast fakes, so a run takes seconds.
 *
 * Skipped without TEST_DATABASE_URL: the embedded database admits a single process, so there is no cluster to
 * build on it (docs/decisions/0041).
 */
describe.skipIf(!TEST_DATABASE_URL)('a multi-process installation (2 API processes, 2 workers, PostgreSQL)', () => {
  const database = scratchDatabase(TEST_DATABASE_URL ?? 'postgres://unused', 'fullstop_cluster');
  const processes: ClusterProcess[] = [];
  let api1: ApiProcess;
  let api2: ApiProcess;
  let workers: WorkerProcess[];
  let s3: TestS3 | undefined;

  beforeAll(async () => {
    [s3] = await Promise.all([startS3(), database.create()]);
    const shared = {
      ...s3.env,
      DATABASE_URL: database.url,
      SERVER_KEY: 'cd'.repeat(32),
      OPERATOR_TOKEN,
      // A real deployment's mode, minus what the fakes make pointless: no PDF printing, no engine probing, no demo.
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      FULLSTOP_DEMO: '0',
      ENGINE_DEMO_SUITE: '0',
      ENGINE_REPORT_PDF: '0',
      ENGINE_READINESS_CHECK: '0',
      ENGINE_RETRY_DELAY: '0',
      ENGINE_RUNNERS_MODULE: FAKE_RUNNERS_MODULE,
    };
    api1 = new ApiProcess('API 1', { ...shared, ENGINE_WORKERS: '0' });
    api2 = new ApiProcess('API 2', { ...shared, ENGINE_WORKERS: '0' });
    workers = [new WorkerProcess('worker 1', shared), new WorkerProcess('worker 2', shared)];
    processes.push(api1, api2, ...workers);
    // All four start at once on a new database: the migrations' advisory lock lets exactly one of them migrate.
    await Promise.all([api1.ready(), api2.ready(), ...workers.map((w) => w.ready())]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await Promise.all([database.drop().catch(() => {}), s3?.close()]);
  }, 60_000);

  it('starts every process on one new database, each listed by both API processes', async () => {
    for (const api of [api1, api2]) {
      const res = await api.call<OpsSystem>('/operator/system', { headers: operator });
      expect(res.status).toBe(200);
      const alive = res.body.processes.filter((p) => p.alive);
      expect(alive.filter((p) => p.role === 'api')).toHaveLength(2);
      expect(alive.filter((p) => p.role === 'api').every((p) => p.workers === 0)).toBe(true);
      expect(alive.filter((p) => p.role === 'worker').map((p) => p.id).sort()).toEqual(workers.map((w) => w.workerId).sort());
      expect(res.body.database).toBe('postgresql');
      expect(res.body.artifacts.kind).toBe('s3');
    }
    for (const p of processes) p.assertAlive();
  });

  describe('a client run through API 1, tests run by the workers', () => {
    let clientId: string;
    let apiKey: string;
    let runId: string;
    let detail: RunDetail;
    let stream: ReturnType<typeof openEvents>;
    let runStartedAt: number;

    beforeAll(async () => {
      const created = await api1.call<{ clientId: string }>('/operator/clients', {
        method: 'POST',
        headers: operator,
        body: { name: 'Cluster Co', website: 'https://cluster.example', email: 'owner@cluster.example', password: 'cluster password 1', username: 'clusterco' },
      });
      expect(created.status, created.bytes.toString()).toBe(201);
      clientId = created.body.clientId;
      const suite = await api1.call(`/operator/clients/${clientId}/suite`, {
        method: 'POST',
        headers: operator,
        body: { files: [{ path: 'suite.json', content: JSON.stringify(SUITE) }] },
      });
      expect(suite.status, suite.bytes.toString()).toBe(201);
      const revealed = await api1.call<{ apiKey: string }>(`/operator/clients/${clientId}/reveal-api-key`, { method: 'POST', headers: operator });
      apiKey = revealed.body.apiKey;

      stream = openEvents(api1.base, apiKey);
      await stream.opened;
      runStartedAt = Date.now();
      const run = await api1.call<{ runId: string }>('/test/run/all', { headers: { 'x-api-key': apiKey } });
      expect(run.status, run.bytes.toString()).toBe(200);
      runId = run.body.runId;
      const deadline = Date.now() + 90_000;
      for (;;) {
        detail = (await api1.call<RunDetail>(`/test/runs/${runId}`, { headers: { 'x-api-key': apiKey } })).body;
        if (TERMINAL.includes(detail.status)) break;
        if (Date.now() > deadline) throw new Error(`the run did not end: ${JSON.stringify(detail)}`);
        for (const p of processes) p.assertAlive();
        await new Promise((r) => setTimeout(r, 200));
      }
    }, 150_000);

    afterAll(() => stream?.close());

    it('runs every test on the worker processes, none on the API processes', async () => {
      expect(detail.status).toBe('failed');
      expect(detail.tests.map((t) => [t.testName, t.status]).sort()).toEqual([
        ['checkout', 'failed'],
        ['health', 'passed'],
        ['home load', 'passed'],
        ['marketing pages', 'passed'],
        ['zap scan', 'passed'],
      ]);
      const db = new pg.Client({ connectionString: database.url });
      await db.connect();
      try {
        const { rows } = await db.query<{ worker_id: string; run_test_id: string }>(
          'SELECT a.worker_id, a.run_test_id FROM engine_attempts a JOIN engine_run_tests t ON t.id = a.run_test_id WHERE t.run_id = $1',
          [runId],
        );
        // Every test has its attempt (an attempt that could not start on a loaded machine is retried: one more).
        expect(new Set(rows.map((r) => r.run_test_id)).size).toBe(5);
        const ids = new Set(workers.map((w) => w.workerId));
        expect(rows.every((r) => ids.has(r.worker_id)), JSON.stringify(rows)).toBe(true);
      } finally {
        await db.end();
      }
    });

    it('serves every report of the run from both API processes, byte for byte', async () => {
      // On one machine an API process could read a worker's files by their absolute path; on two it cannot. The
      // workers' local folders go first, so what the API processes serve comes from the shared store.
      for (const w of workers) rmSync(path.join(w.dataDir, 'storage'), { recursive: true, force: true });
      const lists = await Promise.all([api1, api2].map((api) => api.call<ReportGroups>('/report/fetch/all', { headers: { 'x-api-key': apiKey } })));
      expect(lists.map((l) => l.status)).toEqual([200, 200]);
      expect(lists[1]!.body).toEqual(lists[0]!.body);
      const files: string[] = [];
      for (const reports of Object.values(lists[0]!.body)) {
        for (const [name, entry] of Object.entries(reports)) {
          for (const { format } of entry.formats ?? []) files.push(`/report/fetch/${encodeURIComponent(name)}/${format}`);
        }
      }
      // Five tests with json, html and zip at least, and the run report.
      expect(files.length).toBeGreaterThanOrEqual(16);
      for (const url of files) {
        const [one, two] = await Promise.all([api1, api2].map((api) => api.call(url, { headers: { 'x-api-key': apiKey } })));
        expect([one!.status, two!.status], url).toEqual([200, 200]);
        expect(one!.bytes.length, url).toBeGreaterThan(0);
        expect(two!.bytes.equals(one!.bytes), `${url} differs between the API processes`).toBe(true);
      }
    });

    it('serves every trace and screenshot of the run from both API processes, byte for byte', async () => {
      const fileOf = (url: string) => (url.startsWith('/trace/') ? decodeURIComponent(new URL(url, 'http://x').searchParams.get('trace')!) : url);
      let traces = 0;
      for (const t of detail.tests) {
        const url = `/test/runs/${runId}/tests/${t.runTestId}/evidence`;
        const [one, two] = await Promise.all([api1, api2].map((api) => api.call<EvidenceListResponse>(url, { headers: { 'x-api-key': apiKey } })));
        expect([one!.status, two!.status]).toEqual([200, 200]);
        expect(two!.body.evidence).toEqual(one!.body.evidence);
        for (const item of one!.body.evidence) {
          if (item.kind === 'trace') traces++;
          // A link made by API 1 opens on API 2 too: it is signed with the shared SERVER_KEY.
          const link = await api1.call<{ url: string }>(`${url}/${item.evidenceId}/link`, { method: 'POST', headers: { 'x-api-key': apiKey } });
          expect(link.status).toBe(200);
          const [a, b] = await Promise.all([api1, api2].map((api) => api.call(fileOf(link.body.url))));
          expect([a!.status, b!.status], item.label).toEqual([200, 200]);
          expect(a!.bytes.length).toBe(item.sizeBytes);
          expect(b!.bytes.equals(a!.bytes), `${item.label} differs between the API processes`).toBe(true);
        }
      }
      expect(traces).toBe(1);
    });

    it(`shows an event stream on API 1 each test a worker starts within ${EVENT_LATENCY_MS} ms`, () => {
      // The worker's change is the row it writes when a test starts running: `startedAt` (= the row's updated_at) is
      // the worker's clock just before that write, so the latency measured here also includes the write itself. The
      // processes share this machine's clock. A finish is not measured the same way: its `finishedAt` is taken
      // before the reports are written and stored, which is not event delivery.
      const latencies = new Map<string, number>();
      for (const { at, data } of stream.events) {
        if (data.runId !== runId || data.status !== 'running' || data.attempt !== 1 || !data.startedAt || latencies.has(data.testName)) continue;
        latencies.set(data.testName, at - Date.parse(data.startedAt));
      }
      const summary = JSON.stringify(Object.fromEntries(latencies));
      expect([...latencies.keys()].sort(), summary).toEqual(['checkout', 'health', 'home load', 'marketing pages', 'zap scan']);
      for (const [test, ms] of latencies) {
        expect(ms, `${test}: ${summary}`).toBeGreaterThanOrEqual(-5);
        expect(ms, `${test}: ${summary}`).toBeLessThan(EVENT_LATENCY_MS);
      }
      // Every event arrived after the run was asked for: the stream saw them live, not from its snapshot.
      expect(stream.events.filter((e) => e.data.runId === runId).every((e) => e.at >= runStartedAt)).toBe(true);
      console.info(`event latency, worker's write to the SSE client on API 1 (ms): ${summary}`);
    });

    it('refuses on API 2, at once, a key regenerated through API 1', async () => {
      const asClient = (api: ApiProcess, key: string) => api.call('/test/fetch/all', { headers: { 'x-api-key': key } });
      // API 2 has just used the old key, so it would be in its cache.
      expect((await asClient(api2, apiKey)).status).toBe(200);
      const regenerated = await api1.call(`/clientProfile/generateAPIKey/${clientId}`, { method: 'POST', headers: operator });
      expect(regenerated.status, regenerated.bytes.toString()).toBe(200);
      const refused = await asClient(api2, apiKey);
      expect(refused.status).toBe(401);
      const fresh = await api2.call<{ apiKey: string }>(`/operator/clients/${clientId}/reveal-api-key`, { method: 'POST', headers: operator });
      expect(fresh.body.apiKey).not.toBe(apiKey);
      expect((await asClient(api2, fresh.body.apiKey)).status).toBe(200);
      expect((await asClient(api1, apiKey)).status).toBe(401);
    });

    it('keeps every process alive through all of it', () => {
      for (const p of processes) p.assertAlive();
    });
  });
});
