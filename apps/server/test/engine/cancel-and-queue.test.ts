import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { RunDetailResponse } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { kinds } from '@fullstop/engine/kinds';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToJunit } from '../../src/cli/junit.ts';
import { queueLine } from '../../src/cli/run-command.ts';
import { auditEvents, engineAttempts } from '../../src/db/schema/index.ts';
import { cancelRunTests } from '../../src/features/runs/run-repository.ts';
import { attemptLog, runTestDir } from '../../src/lib/run-paths.ts';
import { bearer, buildTestApp, createTestClient, type TestClient } from '../helpers/app.ts';
import { teamUser } from '../helpers/team.ts';
import { importSuite, key, manifest, operator, OPERATOR_TOKEN, waitForRunEnd } from './helpers.ts';

type Detail = RunDetailResponse;

/** A zombie counts as dead: it only waits for init to reap it. */
const alive = (pid: number) => {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
};

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Issue 39, the waiting room: a queued test says where it stands and about when it starts; owners, members, the API
 * key and operators cancel queued and running runs and tests. Real API tests (real runner processes) against a
 * local site whose /slow page never answers.
 */
describe('cancelling runs, and the queue a client can see', () => {
  let app: FastifyInstance;
  let site: Server;
  let c: TestClient;
  const slowRequests = new Set<IncomingMessage>();
  const closedRequests: IncomingMessage[] = [];

  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/slow') {
        // Answers never: the test runs until its time limit, unless it is stopped.
        slowRequests.add(req);
        req.socket.once('close', () => closedRequests.push(req));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true, ENGINE_REPORT_PDF: false } });
    c = await createTestClient(app, { website: `http://127.0.0.1:${(site.address() as AddressInfo).port}` });
    const imported = await importSuite(app, c.clientId, {
      'suite.json': manifest({
        Checks: [
          { name: 'home', kind: 'api', options: { requests: [{ path: '/' }] } },
          { name: 'about', kind: 'api', options: { requests: [{ path: '/' }] } },
          { name: 'slow page', kind: 'api', options: { requests: [{ path: '/slow', timeoutMs: 120_000 }] }, retries: 1 },
        ],
      }),
    });
    expect(imported.statusCode, imported.body).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    for (const req of slowRequests) req.socket.destroy();
    await new Promise((r) => site?.close(r));
  });

  const detail = async (runId: string): Promise<Detail> => (await app.inject({ url: `/test/runs/${runId}`, headers: key(c) })).json<Detail>();

  it('shows each queued test’s place and estimate, in the run, the run page, the System page and the CLI', async () => {
    // No worker runs: three tests wait, one behind the other.
    const queued = await app.inject({ url: '/test/run/all', headers: key(c) });
    const { runId } = queued.json<{ runId: string }>();
    const run = await detail(runId);
    const api = kinds.api.typicalSeconds;
    const places = run.tests.map((t) => t.queue).sort((a, b) => a!.position - b!.position);
    expect(places).toEqual([
      { position: 1, startsInSeconds: 0 },
      { position: 2, startsInSeconds: api },
      { position: 3, startsInSeconds: 2 * api },
    ]);
    expect(queueLine(run)).toBe('queued: 1st in line, starting any moment');

    const owner = bearer((await teamUser(app, c.clientId, 'owner')).accessToken);
    const page = (await app.inject({ url: `/test/history/${runId}`, headers: owner })).json<Detail>();
    expect(Object.fromEntries(page.tests.map((t) => [t.runTestId, t.queue]))).toEqual(Object.fromEntries(run.tests.map((t) => [t.runTestId, t.queue])));

    const system = (await app.inject({ url: '/operator/system', headers: operator })).json<{ waiting: { runTestId: string; clientId: string; position: number; startsInSeconds: number }[] }>();
    expect(system.waiting.map((w) => w.position)).toEqual([1, 2, 3]);
    expect(system.waiting.every((w) => w.clientId === c.clientId)).toBe(true);

    // A member cancels one queued test: it ends cancelled at once, and the tests behind it move up.
    const member = bearer((await teamUser(app, c.clientId, 'member')).accessToken);
    const first = run.tests.find((t) => t.queue?.position === 1)!;
    const one = await app.inject({ method: 'POST', url: `/test/runs/${runId}/tests/${first.runTestId}/cancel`, headers: member });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual({ message: `Test ${first.testName} cancelled: 1 queued test will not start`, runId, cancelled: 1 });
    const after = await detail(runId);
    expect(after.tests.find((t) => t.runTestId === first.runTestId)).toMatchObject({ status: 'cancelled', queue: null, error: expect.stringMatching(/^Cancelled by /) });
    expect(after.tests.flatMap((t) => (t.queue ? [t.queue.position] : [])).sort()).toEqual([1, 2]);

    // The API key cancels the rest: the run ends cancelled, and a worker started now takes none of it.
    const rest = await app.inject({ method: 'POST', url: `/test/runs/${runId}/cancel`, headers: key(c) });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().message).toBe('Run cancelled: 2 queued tests will not start');
    await app.engine.startWorkers(1);
    await new Promise((r) => setTimeout(r, 2500));
    const ended = await detail(runId);
    expect(ended.status).toBe('cancelled');
    expect(ended.tests.map((t) => [t.status, t.attempts.length])).toEqual([['cancelled', 0], ['cancelled', 0], ['cancelled', 0]]);
    expect(ended.message).toBe('All tests: 3 of 3 tests cancelled');
    const junit = runToJunit({ runId, startedAt: ended.createdAt, tests: ended.tests.map((t) => ({ ...t, totals: null })) });
    expect(junit.match(/<skipped message="cancelled"\/>/g)).toHaveLength(3);
    const history = (await app.inject({ url: '/test/history?status=cancelled', headers: owner })).json<{ runs: { runId: string }[] }>();
    expect(history.runs.map((r) => r.runId)).toContain(runId);

    // Nothing left to cancel: a clear 409.
    const again = await app.inject({ method: 'POST', url: `/test/runs/${runId}/cancel`, headers: key(c) });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This run already ended (cancelled): there is nothing to cancel');
    const againOne = await app.inject({ method: 'POST', url: `/test/runs/${runId}/tests/${first.runTestId}/cancel`, headers: member });
    expect(againOne.statusCode).toBe(409);
    expect(againOne.json().message).toMatch(/already ended \(cancelled\)/);

    const audits = await app.db.select().from(auditEvents).where(eq(auditEvents.clientId, c.clientId));
    expect(audits.filter((a) => a.type.endsWith('.cancelled')).map((a) => [a.type, (a.details as { runId: string }).runId])).toEqual([
      ['run-test.cancelled', runId],
      ['run.cancelled', runId],
    ]);
  }, 30_000);

  it('refuses another client’s people (404), viewers (403), and answers 404 for an unknown run or test', async () => {
    const { runId } = (await app.inject({ url: '/test/run/home', headers: key(c) })).json<{ runId: string }>();
    const other = await createTestClient(app);
    const otherMember = bearer((await teamUser(app, other.clientId, 'member')).accessToken);
    const viewer = bearer((await teamUser(app, c.clientId, 'viewer')).accessToken);
    expect((await app.inject({ method: 'POST', url: `/test/runs/${runId}/cancel`, headers: otherMember })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `/test/runs/${runId}/cancel`, headers: key(other) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `/operator/clients/${other.clientId}/runs/${runId}/cancel`, headers: operator })).statusCode).toBe(404);
    const refused = await app.inject({ method: 'POST', url: `/test/runs/${runId}/cancel`, headers: viewer });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/^Viewers cannot cancel runs/);
    const unknownTest = await app.inject({ method: 'POST', url: `/test/runs/${runId}/tests/00000000-0000-4000-8000-000000000000/cancel`, headers: key(c) });
    expect(unknownTest.statusCode).toBe(404);
    expect(unknownTest.json().message).toBe('Test not found in this run');
    await waitForRunEnd(app, c.apiKey, runId);
  }, 30_000);

  it('stops a running test whole when an operator cancels it: its process and request end within seconds, its log stays', async () => {
    const { runId } = (await app.inject({ url: `/test/run/${encodeURIComponent('slow page')}`, headers: key(c) })).json<{ runId: string }>();
    const running = await until('the slow test to reach the site', () => detail(runId), (d) => d.tests[0]!.status === 'running' && slowRequests.size > 0, 30_000);
    const test = running.tests[0]!;
    const log = path.join(runTestDir(app.paths, c.clientId, runId, test.runTestId), attemptLog(1));
    const pid = Number(/runner process (\d+) ready/.exec(readFileSync(log, 'utf8'))?.[1]);
    expect(alive(pid)).toBe(true);

    const started = Date.now();
    const res = await app.inject({ method: 'POST', url: `/operator/clients/${c.clientId}/runs/${runId}/tests/${test.runTestId}/cancel`, headers: operator });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Test slow page cancelled: 1 running test is being stopped');
    expect((await detail(runId)).status).toBe('cancelled');

    // Its runner process and its request to the site are gone within seconds, and the attempt says why.
    await until('the runner process to end', async () => alive(pid), (a) => !a, 10_000);
    await until('the request to the site to close', async () => closedRequests.length, (n) => n > 0, 10_000);
    const [attempt] = await until(
      'the attempt to end',
      () => app.db.select().from(engineAttempts).where(eq(engineAttempts.runTestId, test.runTestId)),
      (rows) => rows.length === 1 && rows[0]!.status !== 'running',
      10_000,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(attempt).toMatchObject({ status: 'error', error: 'Cancelled by Fullstop QA' });
    expect(existsSync(log)).toBe(true);
    expect(readFileSync(log, 'utf8')).toMatch(/aborting: Cancelled by Fullstop QA/);

    // Not retried, though it had a retry left.
    await new Promise((r) => setTimeout(r, 1500));
    const ended = await detail(runId);
    expect(ended.tests[0]).toMatchObject({ status: 'cancelled', error: 'Cancelled by Fullstop QA' });
    expect(ended.tests[0]!.attempts).toHaveLength(1);
    expect(ended.message).toBe('Test slow page was cancelled');
  }, 60_000);

  it('stops a running test cancelled by another process: the attempt’s heartbeat reads it from the database', async () => {
    const { runId } = (await app.inject({ url: `/test/run/${encodeURIComponent('slow page')}`, headers: key(c) })).json<{ runId: string }>();
    const running = await until('the slow test to run', () => detail(runId), (d) => d.tests[0]!.status === 'running' && d.tests[0]!.attempts.length === 1, 30_000);
    const test = running.tests[0]!;
    const log = path.join(runTestDir(app.paths, c.clientId, runId, test.runTestId), attemptLog(1));
    const pid = Number((await until('the runner to start', async () => /runner process (\d+) ready/.exec(readFileSync(log, 'utf8')), (m) => m !== null))![1]);
    // Another API process wrote it: this process's event bus never hears of it.
    await cancelRunTests(app.db, runId, test.runTestId, 'Cancelled by someone elsewhere');
    const started = Date.now();
    await until('the runner process to end', async () => alive(pid), (a) => !a, 15_000);
    // Within a heartbeat (ENGINE_STALE_AFTER / 6: 5 s here) and the runner's grace to stop.
    expect(Date.now() - started).toBeLessThan(10_000);
    const [attempt] = await until('the attempt to end', () => app.db.select().from(engineAttempts).where(eq(engineAttempts.runTestId, test.runTestId)), (rows) => rows[0]?.status !== 'running', 10_000);
    expect(attempt!.error).toBe('the test was cancelled');
    expect((await detail(runId)).tests[0]).toMatchObject({ status: 'cancelled', error: 'Cancelled by someone elsewhere' });
  }, 60_000);
});
