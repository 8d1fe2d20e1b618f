import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRunnerPool, type RunnerPool } from '@fullstop/engine/sandbox';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestClient } from '../../../test/helpers/app.ts';
import { fakeRunners } from '../../../test/engine/fixtures/fake-runners.ts';
import { clientWithSuite, OPERATOR_TOKEN, waitForRunEnd } from '../../../test/engine/helpers.ts';
import { announceRunners, runnerIsolation } from './isolation.ts';

/** The engine's hostile runners: `spy` tries the server's /proc and key file and writes what it could read. */
const HOSTILE = fileURLToPath(new URL('../../../../../packages/engine/test/sandbox/fixtures/hostile-runners.ts', import.meta.url));
/** Users of this test's own (not the automatic pool's `fullstop-runner-N`), made when missing. */
const POOL = ['fullstop-runner-srv-a', 'fullstop-runner-srv-b'];
const isRoot = process.geteuid?.() === 0;

/** Every entry under `dir` (itself included), with its lstat. */
function walk(dir: string): { path: string; stat: Stats }[] {
  const stat = lstatSync(dir);
  return [{ path: dir, stat }, ...(stat.isDirectory() ? readdirSync(dir).flatMap((e) => walk(path.join(dir, e))) : [])];
}

/**
 * The real server with a pool of runner users (ENGINE_RUNNER_USER listing several, issue 37): each attempt runs as a
 * user of the pool, and its folder is closed after it, the server's again. Switching users needs root (CI is):
 * elsewhere the users can be neither made nor switched to, so the block is skipped.
 */
describe.skipIf(!isRoot)('a server with a pool of runner users (root only)', () => {
  let app: FastifyInstance;
  let c: TestClient;
  const logs: { level: string; msg: string; obj: object }[] = [];
  const log = {
    info: (obj: object, msg: string) => logs.push({ level: 'info', msg, obj }),
    warn: (obj: object, msg: string) => logs.push({ level: 'warn', msg, obj }),
    error: (obj: object, msg: string) => logs.push({ level: 'error', msg, obj }),
  };

  beforeAll(async () => {
    for (const name of POOL) {
      try {
        execFileSync('id', ['-u', name], { stdio: 'ignore' });
      } catch {
        execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', '--user-group', name]);
      }
    }
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_RUNNER_USER: POOL.join(',') }, runners: fakeRunners, runnersModule: HOSTILE });
    await app.engine.startWorkers(1);
    const keyFile = path.join(app.paths.dataDir, 'server-key');
    c = await clientWithSuite(app, { Spy: [{ name: 'spy', kind: 'api', options: { behaviour: 'spy', serverPid: process.pid, keyFile } }] });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('claims the pool at start and says so in one line, and the System page names its users', async () => {
    const { runAs } = app.engine.deps.config;
    expect(isRunnerPool(runAs)).toBe(true);
    // Claimed by the server's start already (its onReady): the same answer again.
    await announceRunners(app.engine.deps.config, log, { production: false, workers: 1 });
    const lines = logs.filter((l) => l.level !== 'warn' || !/network namespace/.test(l.msg));
    expect(lines).toHaveLength(1);
    // Sized for this process: no worker of its own under NODE_ENV=test (the test starts one), so one user, the first free.
    expect(lines[0]).toMatchObject({ level: 'info', msg: expect.stringMatching(/^runner processes run as 1 user\(s\) of their own, one per running test \(fullstop-runner-srv-a\); a test ends whole: /) });
    expect(runnerIsolation(app.engine.deps.config, 1)).toMatchObject({
      runnerUser: 'fullstop-runner-srv-a',
      runnerUsers: { mode: 'pool', names: [POOL[0]], problem: null },
      attemptEnd: { how: expect.stringMatching(/^(cgroup|runner-user)$/) },
    });
  });

  it('runs the attempt as a user of the pool, then closes its folder: the server’s again, nothing for group or others', async () => {
    const { runId } = (await app.inject({ url: '/test/run/spy', headers: { 'x-api-key': c.apiKey } })).json<{ runId: string }>();
    const detail = (await waitForRunEnd(app, c.apiKey, runId, 60_000)) as { tests: { runTestId: string; status: string }[] };
    expect(detail.tests[0], JSON.stringify(detail)).toMatchObject({ status: 'passed' });
    const clientDir = path.join(app.paths.runs, c.clientId);
    const attemptDir = path.join(clientDir, runId, detail.tests[0]!.runTestId, 'attempt-1');
    const spy = JSON.parse(readFileSync(path.join(attemptDir, 'spy.json'), 'utf8')) as { uid: number; environ: unknown; key: unknown };
    const uids = POOL.map((name) => Number(execFileSync('id', ['-u', name], { encoding: 'utf8' })));
    expect(uids).toContain(spy.uid);
    expect({ environ: spy.environ, key: spy.key }).toEqual({ environ: { error: 'EACCES' }, key: { error: 'EACCES' } });
    // The attempt's folder and all in it: root's, closed.
    for (const e of walk(attemptDir)) {
      expect({ path: e.path, uid: e.stat.uid, gid: e.stat.gid }).toEqual({ path: e.path, uid: 0, gid: 0 });
      if (!e.stat.isSymbolicLink()) expect({ path: e.path, open: e.stat.mode & 0o7077 }).toEqual({ path: e.path, open: 0 });
    }
    // The folders above it were made 0700 and gained the search bit only: reachable by name, never listable.
    for (const dir of [clientDir, path.join(clientDir, runId), path.join(clientDir, runId, detail.tests[0]!.runTestId)]) {
      expect({ dir, mode: lstatSync(dir).mode & 0o777 }).toEqual({ dir, mode: 0o701 });
    }
    // The attempt's log is the server's alone.
    expect(lstatSync(path.join(clientDir, runId, detail.tests[0]!.runTestId, 'attempt-1.log')).mode & 0o077).toBe(0);
    // Its user is back in the pool, with nothing left running.
    const pool = app.engine.deps.config.runAs as RunnerPool;
    expect(pool.freeCount).toBe(1);
  }, 90_000);
});
