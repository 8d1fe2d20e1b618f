import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { buildTestApp, createTestClient, type TestClient } from '../helpers/app.ts';
import { FAKE_RUNNERS_MODULE, fakeRunners } from './fixtures/fake-runners.ts';

export const OPERATOR_TOKEN = 'fso_test-operator-token-0123456789abcdef';
export const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

/** The real app with the fake runners in place of the real ones; workers only when a test starts them. */
export async function buildEngineApp(): Promise<FastifyInstance> {
  const app = await buildTestApp({ env: { OPERATOR_TOKEN } });
  app.engine.deps.runners = fakeRunners;
  app.engine.deps.runnersModule = FAKE_RUNNERS_MODULE;
  return app;
}

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

export async function clientWithSuite(app: FastifyInstance, groups: Record<string, SuiteTest[]>): Promise<TestClient> {
  const c = await createTestClient(app);
  const res = await importSuite(app, c.clientId, { 'suite.json': manifest(groups) });
  expect(res.statusCode, res.body).toBe(201);
  return c;
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
