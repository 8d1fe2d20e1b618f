import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestClient } from '../helpers/app.ts';
import { fakeRunners } from './fixtures/fake-runners.ts';
import { clientWithSuite, OPERATOR_TOKEN, waitForRunEnd } from './helpers.ts';

/** The engine's hostile runners: `spy` tries the server's /proc and key file and writes what it could read. */
const HOSTILE = fileURLToPath(new URL('../../../../packages/engine/test/sandbox/fixtures/hostile-runners.ts', import.meta.url));
const RUNNER = 'fullstop-runner';
const isRoot = process.geteuid?.() === 0;

/** Every file named `name` under `dir`. */
const find = (dir: string, name: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? find(path.join(dir, e.name), name) : e.name === name ? [path.join(dir, e.name)] : []));

/**
 * The real server with ENGINE_RUNNER_USER set (docs/decisions/0077): its runner processes cannot read the server's
 * environment nor the key it generated in DATA_DIR. Switching users needs root (CI and the shipped worker are):
 * elsewhere the user can be neither created nor switched to, so the block is skipped.
 */
describe.skipIf(!isRoot)('runners as ENGINE_RUNNER_USER (root only)', () => {
  let app: FastifyInstance;
  let c: TestClient;

  beforeAll(async () => {
    try {
      execFileSync('id', ['-u', RUNNER], { stdio: 'ignore' });
    } catch {
      execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', RUNNER]);
    }
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_RUNNER_USER: RUNNER }, runners: fakeRunners, runnersModule: HOSTILE });
    await app.engine.startWorkers(1);
    const keyFile = path.join(app.paths.dataDir, 'server-key');
    c = await clientWithSuite(app, { Spy: [{ name: 'spy', kind: 'api', options: { behaviour: 'spy', serverPid: process.pid, keyFile } }] });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('runs the attempt as the runner user, which cannot read /proc/<server>/environ nor DATA_DIR/server-key', async () => {
    expect(app.engine.deps.config.runnerUser?.name).toBe(RUNNER);
    const keyFile = path.join(app.paths.dataDir, 'server-key');
    expect(existsSync(keyFile)).toBe(true);
    const { runId } = (await app.inject({ url: '/test/run/spy', headers: { 'x-api-key': c.apiKey } })).json();
    const detail = (await waitForRunEnd(app, c.apiKey, runId, 60_000)) as { tests: { status: string; error: string | null }[] };
    expect(detail.tests[0], JSON.stringify(detail)).toMatchObject({ status: 'passed' });
    const [file] = find(app.paths.dataDir, 'spy.json');
    const spy = JSON.parse(readFileSync(file!, 'utf8')) as { uid: number; environ: unknown; maps: unknown; key: unknown };
    const uid = Number(execFileSync('id', ['-u', RUNNER], { encoding: 'utf8' }));
    expect(spy.uid).toBe(uid);
    // Written by the runner user; the attempt's folder was handed back to the server (owner only) when it ended.
    expect([statSync(file!).uid, statSync(file!).mode & 0o077]).toEqual([0, 0]);
    expect({ environ: spy.environ, maps: spy.maps, key: spy.key }).toEqual({ environ: { error: 'EACCES' }, maps: { error: 'EACCES' }, key: { error: 'EACCES' } });
  });
});
