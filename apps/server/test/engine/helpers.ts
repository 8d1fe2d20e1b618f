import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildTestApp, createTestClient, type TestClient } from '../helpers/app.ts';
import { FAKE_RUNNERS_MODULE, fakeRunners } from './fixtures/fake-runners.ts';

export const OPERATOR_TOKEN = 'fso_test-operator-token-0123456789abcdef';
export const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

/** The real app with the fake runners in place of the real ones; `workers` started at once (none: the test starts them). */
export async function buildEngineApp(workers = 0): Promise<FastifyInstance> {
  const app = await buildTestApp({ env: { OPERATOR_TOKEN }, runners: fakeRunners, runnersModule: FAKE_RUNNERS_MODULE });
  if (workers > 0) await app.engine.startWorkers(workers);
  return app;
}

/**
 * For a describe block: an engine app with `workers` workers and what `setup` makes in it (clients, a first run),
 * closed after the block. Read its fields inside the tests (they are set in beforeAll).
 */
export function useEngineApp<T extends object>(
  workers: number,
  setup: (app: FastifyInstance) => Promise<T>,
  timeoutMs?: number,
): { app: FastifyInstance } & T {
  const fixture = {} as { app: FastifyInstance } & T;
  beforeAll(async () => {
    fixture.app = await buildEngineApp(workers);
    Object.assign(fixture, await setup(fixture.app));
  }, timeoutMs);
  afterAll(async () => fixture.app?.close());
  return fixture;
}

/** The headers of a call with the client's API key. */
export const key = (c: TestClient) => ({ 'x-api-key': c.apiKey });

export type SuiteTest = { name: string; kind: string; options?: Record<string, unknown> } & Record<string, unknown>;

export function manifest(groups: Record<string, SuiteTest[]>): string {
  return JSON.stringify({ version: 1, groups: Object.entries(groups).map(([name, tests]) => ({ name, tests })) });
}

export async function importSuite(app: FastifyInstance, clientId: string, files: Record<string, string>) {
  return app.inject({
    method: 'POST',
    url: `/operator/clients/${clientId}/suite`,
    headers: operator,
    payload: { files: Object.entries(files).map(([path, content]) => ({ path, content })) },
  });
}

/** The suite the run, report and insight tests share: a passing and a failing browser test, a load test, a scan. */
export function mixedSuite(moreSecurity: SuiteTest[] = []): Record<string, SuiteTest[]> {
  return {
    Frontend: [
      { name: 'marketing pages', kind: 'browser', options: { outcome: 'pass' } },
      { name: 'checkout', kind: 'browser', options: { outcome: 'fail' } },
    ],
    Performance: [{ name: 'home load', kind: 'load' }],
    Security: [{ name: 'zap scan', kind: 'security-scan' }, ...moreSecurity],
  };
}

export async function clientWithSuite(app: FastifyInstance, groups: Record<string, SuiteTest[]>): Promise<TestClient> {
  const c = await createTestClient(app);
  const res = await importSuite(app, c.clientId, { 'suite.json': manifest(groups) });
  expect(res.statusCode, res.body).toBe(201);
  return c;
}

/** An app with `workers` workers, client `a` with this suite and client `b` without any. */
export async function engineWithTwoClients(workers: number, groups: Record<string, SuiteTest[]>) {
  const app = await buildEngineApp(workers);
  return { app, a: await clientWithSuite(app, groups), b: await createTestClient(app) };
}

/** Polls GET /test/runs/{id} until the run ends. */
export async function waitForRunEnd(app: FastifyInstance, apiKey: string, runId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({ url: `/test/runs/${runId}`, headers: { 'x-api-key': apiKey } });
    const body = res.json();
    if (['passed', 'failed', 'error', 'cancelled'].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end: ${res.body}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Starts a run (all tests, or one by name) with the client's key and waits for it to end; answers the run detail. */
export async function runAndWait(app: FastifyInstance, client: TestClient, scope = 'all', timeoutMs?: number) {
  const res = await app.inject({ url: `/test/run/${encodeURIComponent(scope)}`, headers: key(client) });
  expect(res.statusCode, res.body).toBe(200);
  return waitForRunEnd(app, client.apiKey, res.json<{ runId: string }>().runId, timeoutMs);
}
