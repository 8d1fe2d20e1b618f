import type { OpsSystem } from '@fullstop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_RUNNERS_MODULE } from './engine/fixtures/fake-runners.ts';
import { ApiProcess, type ClusterProcess, WorkerProcess } from './helpers/cluster.ts';
import { TEST_DATABASE_URL } from './helpers/database.ts';
import { scratchDatabase } from './helpers/scratch-database.ts';

const OPERATOR_TOKEN = 'fso_cluster-operator-token-0123456789abcdef';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

/**
 * A multi-process installation as docs/deployment.md describes it: two `fullstop serve` processes (ENGINE_WORKERS=0,
 * each its own DATA_DIR) and two `fullstop worker --concurrency 2` processes, one PostgreSQL database, shared
 * SERVER_KEY and OPERATOR_TOKEN. The runners are the engine tests' fast fakes, so a run takes seconds.
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

  beforeAll(async () => {
    await database.create();
    const shared = {
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
    await database.drop().catch(() => {});
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
    }
    for (const p of processes) p.assertAlive();
  });
});
