import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { manifest, OPERATOR_TOKEN } from './helpers.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../..');
/** In the engine helper's port range (3150-3159). */
const PORT = 3151;
const base = `http://127.0.0.1:${PORT}`;
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' };

/**
 * A real server process (embedded database, fake runners preloaded) is killed with SIGKILL while two tests run.
 * Started again on the same data directory, it must leave nothing stuck: the test with a retry left runs again
 * and passes, the one without ends as an error that says why. Every attempt stays in the run's history.
 */
describe('a server killed during a run', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-crash-'));
  let child: ChildProcess | null = null;

  const spawnServer = () => {
    const log = openSync(path.join(dataDir, 'server.log'), 'a');
    return spawn(process.execPath, ['--import', 'tsx', '--import', path.join(here, 'fixtures/preload-fake-runners.ts'), 'src/main.ts'], {
      cwd: serverRoot,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        FULLSTOP_DEMO: '0',
        OPERATOR_TOKEN,
        ENGINE_WORKERS: '2',
        ENGINE_RETRIES: '1',
        ENGINE_RETRY_DELAY: '0',
      },
    });
  };

  const start = async () => {
    child = spawnServer();
    // The killed process's data-directory lock goes stale after ~15 s: until then a new server refuses to start.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) {
        await new Promise((r) => setTimeout(r, 1000));
        child = spawnServer();
        continue;
      }
      const ok = await fetch(`${base}/healthz`).then((r) => r.ok).catch(() => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 300));
    }
    throw new Error(`the server did not start (see ${dataDir}/server.log)`);
  };

  afterAll(async () => {
    child?.kill('SIGKILL');
    if (!process.env.KEEP_CRASH_DIR) rmSync(dataDir, { recursive: true, force: true });
  });

  it('retries the test that has attempts left and fails the other with the reason', { timeout: 150_000 }, async () => {
    await start();
    const created = await fetch(`${base}/operator/clients`, {
      method: 'POST',
      headers: operator,
      body: JSON.stringify({ name: 'Crash Co', website: 'https://crash.example', email: 'crash@example.test', password: 'crash password 1', username: 'crash' }),
    });
    expect(created.status).toBe(201);
    const { clientId } = (await created.json()) as { clientId: string };
    const revealed = await fetch(`${base}/operator/clients/${clientId}/reveal-api-key`, { method: 'POST', headers: operator, body: '{}' });
    const { apiKey } = (await revealed.json()) as { apiKey: string };
    const suite = manifest({
      G: [
        { name: 'slow once', kind: 'browser', options: { sleepMs: 120_000, sleepOnAttempts: [1] } },
        { name: 'no retries', kind: 'api', options: { sleepMs: 120_000 }, retries: 0 },
      ],
    });
    const imported = await fetch(`${base}/operator/clients/${clientId}/suite`, { method: 'POST', headers: operator, body: JSON.stringify({ files: [{ path: 'suite.json', content: suite }] }) });
    expect(imported.status).toBe(201);
    const key = { 'x-api-key': apiKey };
    const { runId } = (await (await fetch(`${base}/test/run/all`, { headers: key })).json()) as { runId: string };

    const detail = async () => (await (await fetch(`${base}/test/runs/${runId}`, { headers: key })).json()) as {
      status: string;
      tests: { testName: string; status: string; error: string | null; attempts: { status: string; error: string | null }[] }[];
    };
    for (let i = 0; i < 100; i++) {
      const d = await detail();
      if (d.tests.every((t) => t.status === 'running')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await detail()).tests.map((t) => t.status)).toEqual(['running', 'running']);

    child!.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    await start();

    let d = await detail();
    for (let i = 0; i < 150 && !['passed', 'failed', 'error'].includes(d.status); i++) {
      await new Promise((r) => setTimeout(r, 200));
      d = await detail();
    }
    expect(d.status).toBe('error');
    const slow = d.tests.find((t) => t.testName === 'slow once')!;
    expect(slow.status).toBe('passed');
    expect(slow.attempts.map((a) => a.status)).toEqual(['error', 'passed']);
    expect(slow.attempts[0]!.error).toMatch(/stopped .*probably killed/);
    const none = d.tests.find((t) => t.testName === 'no retries')!;
    expect(none.status).toBe('error');
    expect(none.error).toMatch(/stopped .*probably killed/);
    expect(none.attempts).toHaveLength(1);
  });
});
