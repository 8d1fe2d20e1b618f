import type { OpsSystem } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineAttempts, engineRunTests, engineRuns, engineSuites, serverProcesses } from '../src/db/schema/index.ts';
import { chromiumSandboxSupport } from '@fullstop/engine/sandbox';
import { ProcessRegistry } from '../src/features/system/process-registry.ts';
import { bearer, buildTestApp, createTestClient, login, operatorBearer } from './helpers/app.ts';

describe('the console’s System page (GET /operator/system)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const read = async () => {
    const res = await app.inject({ method: 'GET', url: '/operator/system', headers: operatorBearer(app) });
    expect(res.statusCode).toBe(200);
    return res.json<OpsSystem>();
  };

  it('lists this API process as running, with where artifacts go', async () => {
    const system = await read();
    const self = system.processes.find((p) => p.id === app.engine.deps.workerId);
    // It runs no tests (ENGINE_WORKERS=0 in the tests), so it has no runners to isolate.
    expect(self).toMatchObject({ role: 'api', pid: process.pid, alive: true, workers: 0, running: 0, isolation: null });
    expect(system.artifacts).toEqual({ kind: 'data-dir', location: app.paths.storage });
    expect(system.database).toBe(app.database.kind === 'pglite' ? 'embedded' : 'postgresql');
  });

  it('shows a worker with the tests it is running, and one whose heartbeat stopped as stopped', async () => {
    const isolation = { runnerUser: 'fullstop-runner', chromiumSandbox: true, reason: null };
    const worker = new ProcessRegistry(app.db, { id: 'machine-b:4242:abc123', role: 'worker', workers: 2, isolation }, app.log);
    await worker.start();
    const { clientId } = await createTestClient(app);
    const [suite] = await app.db.insert(engineSuites).values({ clientId, version: 1, dir: '/tmp/none', manifest: { tests: [] } as never, fileCount: 0, isCurrent: true }).returning();
    const [run] = await app.db.insert(engineRuns).values({ clientId, suiteId: suite!.id, scope: 'all', status: 'running', trigger: 'api' }).returning();
    const [rt] = await app.db
      .insert(engineRunTests)
      .values([
        { runId: run!.id, clientId, testName: 'Home', groupName: 'Frontend', kind: 'browser' as never, status: 'running' },
        { runId: run!.id, clientId, testName: 'Login', groupName: 'Frontend', kind: 'browser' as never, status: 'queued' },
      ])
      .returning();
    await app.db.insert(engineAttempts).values({ runTestId: rt!.id, attempt: 1, workerId: 'machine-b:4242:abc123', status: 'running' } as never);
    await app.db.insert(serverProcesses).values({ id: 'machine-c:7:dead00', role: 'worker', host: 'machine-c', pid: 7, version: '0.1.0', workers: 4, lastSeenAt: new Date(Date.now() - 10 * 60_000) });

    const system = await read();
    expect(system.processes.find((p) => p.id === 'machine-b:4242:abc123')).toMatchObject({ role: 'worker', host: expect.any(String), alive: true, workers: 2, running: 1, isolation });
    // A row of a version that did not report isolation: unknown.
    expect(system.processes.find((p) => p.id === 'machine-c:7:dead00')).toMatchObject({ alive: false, isolation: null });
    // Running processes come first.
    expect(system.processes.at(-1)?.id).toBe('machine-c:7:dead00');
    expect(system.queue).toEqual({ queued: 1, running: 1 });

    // A clean stop removes the process from the page.
    await worker.stop();
    expect((await read()).processes.some((p) => p.id === 'machine-b:4242:abc123')).toBe(false);
  });

  it('says how the runners of a process that runs tests are isolated, and a restart under the same id updates it', async () => {
    const id = 'machine-d:99:beef00';
    await new ProcessRegistry(app.db, { id, role: 'worker', workers: 1, isolation: { runnerUser: 'fullstop-runner', chromiumSandbox: true, reason: null } }, app.log).start();
    // Restarted without ENGINE_RUNNER_USER, on a kernel that refuses user namespaces.
    const now = { runnerUser: null, chromiumSandbox: false, reason: 'the kernel refuses user namespaces here (unshare: Operation not permitted)' };
    const restarted = new ProcessRegistry(app.db, { id, role: 'worker', workers: 1, isolation: now }, app.log);
    await restarted.start();
    expect((await read()).processes.find((p) => p.id === id)?.isolation).toEqual(now);
    await restarted.stop();
  });

  it('reports the isolation of an API process that runs tests itself', async () => {
    const runner = await buildTestApp({ env: { ENGINE_WORKERS: 1, ENGINE_WARM_RUNNERS: 0 } });
    try {
      const res = await runner.inject({ method: 'GET', url: '/operator/system', headers: operatorBearer(runner) });
      const self = res.json<OpsSystem>().processes.find((p) => p.id === runner.engine.deps.workerId);
      // No ENGINE_RUNNER_USER here: runners run as this process's user, with whatever sandbox this kernel allows.
      const sandbox = chromiumSandboxSupport(null);
      expect(self).toMatchObject({ role: 'api', workers: 1, isolation: { runnerUser: null, chromiumSandbox: sandbox.ok, reason: sandbox.ok ? null : sandbox.reason } });
    } finally {
      await runner.close();
    }
  });

  it('is for operators only', async () => {
    expect((await app.inject({ method: 'GET', url: '/operator/system' })).statusCode).toBe(401);
    const c = await createTestClient(app);
    const session = await login(app, c.email, c.password);
    expect((await app.inject({ method: 'GET', url: '/operator/system', headers: bearer(session.accessToken) })).statusCode).toBe(403);
  });
});
