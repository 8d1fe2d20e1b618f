import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { engineReadiness, readinessResponse, testLatestResponse } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/app.ts';
import { buildTestApp, createTestClient, type TestClient } from '../helpers/app.ts';
import { freshDatabase } from '../helpers/database.ts';
import { importSuite, key, manifest, operator, OPERATOR_TOKEN, runAndWait } from './helpers.ts';

const run = promisify(execFile);
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/fullstop.js');

/**
 * A server on a machine without wapiti and Chromium (WAPITI_PATH and CHROMIUM_PATH name files that do not exist),
 * with the engine's real runners: readiness says degraded and names what is missing, and the tests that need
 * them end as errors saying what to install, after one attempt.
 */
describe('engine readiness on a machine without wapiti and Chromium', () => {
  const missingDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-no-engines-'));
  const WAPITI_PATH = path.join(missingDir, 'wapiti');
  const CHROMIUM_PATH = path.join(missingDir, 'chromium');
  let app: FastifyInstance;
  let client: TestClient;
  let site: Server;
  let siteRequests = 0;

  beforeAll(async () => {
    site = createServer((_req, res) => {
      siteRequests++;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!doctype html><html lang="en"><title>Shop</title><h1>Shop</h1></html>');
    });
    site.on('error', () => {});
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    app = await buildTestApp({
      env: { OPERATOR_TOKEN, WAPITI_PATH, CHROMIUM_PATH, ENGINE_ALLOW_PRIVATE_TARGETS: true, ENGINE_RETRIES: 2, ENGINE_RETRY_DELAY: 0 },
    });
    await app.engine.startWorkers(2);
    client = await createTestClient(app, { website: `http://127.0.0.1:${(site.address() as AddressInfo).port}` });
    const res = await importSuite(app, client.clientId, {
      'suite.json': manifest({
        Security: [
          { name: 'zap scan', kind: 'security-scan', options: { maxPages: 2 } },
          { name: 'passive scan', kind: 'security-scan', options: { active: false, maxPages: 2 } },
        ],
        Frontend: [{ name: 'home accessibility', kind: 'accessibility' }],
      }),
    });
    expect(res.statusCode, res.body).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => site?.close(resolve));
    rmSync(missingDir, { recursive: true, force: true });
  });

  it('answers degraded on /readyz without naming paths, engines or versions', async () => {
    const res = await app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(readinessResponse.strict().parse(res.json())).toEqual({ status: 'degraded' });
    expect(res.body).not.toMatch(/wapiti|chromium|\/usr|\d+\.\d+/i);
  });

  it('tells operators which engine is missing, where it was looked for and how to install it', async () => {
    expect((await app.inject({ url: '/operator/engines' })).statusCode).toBe(401);
    expect([401, 403]).toContain((await app.inject({ url: '/operator/engines', headers: key(client) })).statusCode);
    const res = await app.inject({ url: '/operator/engines', headers: operator });
    expect(res.statusCode, res.body).toBe(200);
    const body = engineReadiness.parse(res.json());
    expect(body.status).toBe('degraded');
    const byName = Object.fromEntries(body.engines.map((e) => [e.engine, e]));
    expect(byName.wapiti).toEqual({
      engine: 'wapiti',
      title: 'wapiti',
      ok: false,
      version: null,
      location: WAPITI_PATH,
      problem: `not installed at ${WAPITI_PATH}`,
      install: 'apt-get install wapiti',
      setting: 'WAPITI_PATH',
      kinds: ['security-scan'],
    });
    expect(byName.chromium).toMatchObject({ ok: false, problem: `not installed at ${CHROMIUM_PATH}`, install: 'apt-get install chromium-headless-shell (or chromium)', kinds: ['browser', 'accessibility', 'lighthouse', 'visual', 'payment'] });
    // The packages are installed: only the two programs are missing.
    expect(body.engines.filter((e) => !e.ok).map((e) => e.engine)).toEqual(['chromium', 'wapiti']);
  });

  it('ends each test whose engine is missing as an error saying what to install, after one attempt; the others run', async () => {
    const detail = await runAndWait(app, client, 'all', 90_000);
    const byName = Object.fromEntries(
      (detail.tests as { testName: string; status: string; error: string | null; attempts: { status: string; error: string | null }[] }[]).map((t) => [t.testName, t]),
    );
    const noWapiti = `The security scan needs wapiti, which is not installed at ${WAPITI_PATH}. Install it with: apt-get install wapiti`;
    expect(byName['zap scan']).toMatchObject({ status: 'error', error: noWapiti });
    expect(byName['zap scan']!.attempts).toEqual([expect.objectContaining({ status: 'error', error: noWapiti })]);
    const noChromium = `The accessibility test needs Chromium, which is not installed at ${CHROMIUM_PATH}. Install it with: apt-get install chromium-headless-shell (or chromium)`;
    expect(byName['home accessibility']).toMatchObject({ status: 'error', error: noChromium });
    expect(byName['home accessibility']!.attempts).toHaveLength(1);
    // The passive checks need neither, and ran against the site.
    expect(byName['passive scan']!.status).not.toBe('error');
    expect(siteRequests).toBeGreaterThan(0);

    // The portal reads why on GET /test/latest.
    const latest = testLatestResponse.parse((await app.inject({ url: '/test/latest', headers: key(client) })).json());
    expect(latest.tests.find((t) => t.testName === 'zap scan')).toMatchObject({ kind: 'security-scan', status: 'error', error: noWapiti });
    expect(latest.tests.find((t) => t.testName === 'passive scan')?.error).toBeNull();
  }, 120_000);

  it('prints the engines with `fullstop engines`, exiting 1 while one is missing', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const server = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const answer = run(process.execPath, [BIN, '--server', server, '--token', OPERATOR_TOKEN, 'engines'], { timeout: 60_000 });
    await expect(answer).rejects.toMatchObject({ code: 1 });
    const { stdout } = (await answer.catch((err: unknown) => err)) as { stdout: string };
    expect(stdout).toContain(`Engines of ${server}: degraded`);
    expect(stdout).toMatch(new RegExp(`missing +wapiti +not installed at ${WAPITI_PATH.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(stdout).toMatch(/ok +the Lighthouse packages +\d+\.\d+\.\d+/);
    expect(stdout).toContain('security-scan tests cannot run until wapiti is installed: apt-get install wapiti (or set WAPITI_PATH to where it is)');
  }, 90_000);
});

describe('engine readiness at start', () => {
  it('logs one line per missing engine when the server starts', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-readiness-log-'));
    const lines: { level: number; msg: string }[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) };
    const wapitiPath = path.join(dataDir, 'no-wapiti');
    const app = await build({
      database: await freshDatabase(),
      logger: { level: 'info', stream },
      env: { NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: undefined, FULLSTOP_DEMO: false, WAPITI_PATH: wapitiPath, ENGINE_READINESS_CHECK: true },
    });
    try {
      const deadline = Date.now() + 30_000;
      while (!lines.some((l) => l.msg.startsWith('engine missing')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const missing = lines.filter((l) => l.msg.startsWith('engine missing'));
      expect(missing.map((l) => l.msg)).toEqual([
        `engine missing: wapiti is not installed at ${wapitiPath}: security scans cannot run. Install it with: apt-get install wapiti (or set WAPITI_PATH to where it is)`,
      ]);
      expect(missing[0]!.level).toBe(40);
      expect((await app.inject({ url: '/readyz' })).json()).toEqual({ status: 'degraded' });
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
