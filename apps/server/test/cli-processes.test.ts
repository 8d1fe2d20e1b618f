import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const TOKEN = 'fso_cli-processes-token-0123456789abcdef';
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/fullstop.js');

/** The environment of the test process without any setting a case did not ask for. */
function envWith(settings: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of ['DATABASE_URL', 'ARTIFACT_STORE', 'S3_BUCKET', 'PORT', 'DATA_DIR', 'ENGINE_WORKERS']) delete base[name];
  return { ...base, NODE_ENV: 'test', LOG_LEVEL: 'info', ...settings };
}

function cli(args: string[], settings: Record<string, string> = {}) {
  return new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 30_000, env: envWith(settings) }, (err, stdout, stderr) =>
      resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 }),
    );
  });
}

// These start their own processes, each on its own embedded database: the database the API suite runs on changes
// nothing here, so the file runs once, in the PGlite project, not again in the PostgreSQL one.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('fullstop serve and fullstop worker', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-cli-proc-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('refuse a bad setting with a message naming it and exit code 1', async () => {
    // Side by side: each CLI start costs a second or more on a busy machine.
    const [port, bucket, workerPort, noDatabase, concurrency] = await Promise.all([
      cli(['serve'], { PORT: 'not-a-port', DATA_DIR: scratch() }),
      cli(['serve'], { ARTIFACT_STORE: 's3', DATA_DIR: scratch() }),
      cli(['worker'], { ENGINE_RUN_MEMORY_MB: '1', DATABASE_URL: 'postgres://127.0.0.1:1/none', DATA_DIR: scratch() }),
      cli(['worker'], { DATA_DIR: scratch() }),
      cli(['worker', '--concurrency', '0'], { DATABASE_URL: 'postgres://127.0.0.1:1/none', DATA_DIR: scratch() }),
    ]);
    expect(port).toMatchObject({ code: 1, stdout: '' });
    expect(port.stderr).toMatch(/^fullstop: Invalid configuration:\n {2}PORT: /);
    expect(bucket).toMatchObject({ code: 1, stderr: expect.stringContaining('S3_BUCKET: is required with ARTIFACT_STORE=s3') });
    expect(workerPort).toMatchObject({ code: 1, stderr: expect.stringContaining('ENGINE_RUN_MEMORY_MB: ') });
    expect(noDatabase).toMatchObject({ code: 1, stderr: expect.stringContaining('fullstop worker needs DATABASE_URL (PostgreSQL)') });
    expect(concurrency).toMatchObject({ code: 1, stderr: 'fullstop: --concurrency must be 1-64\n' });
    // A stack trace would say the program broke; a config message says what to change.
    for (const r of [port, bucket, workerPort, noDatabase, concurrency]) expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('say in --help which settings matter at scale', async () => {
    const [serve, worker] = await Promise.all([cli(['serve', '--help']), cli(['worker', '--help'])]);
    expect(serve.code).toBe(0);
    for (const setting of ['ENGINE_WORKERS', 'DATABASE_URL', 'ARTIFACT_STORE=s3', 'SERVER_KEY', 'OPERATOR_TOKEN', 'DATA_DIR', 'PORT']) {
      expect(serve.stdout).toContain(setting);
    }
    expect(serve.stdout).toContain('ENGINE_WORKERS=0');
    expect(worker.code).toBe(0);
    for (const setting of ['DATABASE_URL', 'ARTIFACT_STORE=s3', 'SERVER_KEY', 'DATA_DIR', '--concurrency']) expect(worker.stdout).toContain(setting);
  }, 60_000);

  it('fullstop serve answers on its port and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: envWith({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: scratch(), FULLSTOP_DEMO: '0', OPERATOR_TOKEN: TOKEN }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', () => {});
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 45_000;
      let url: string | undefined;
      while (!url && Date.now() < deadline && child.exitCode === null) {
        url = /ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
        if (!url) await new Promise((r) => setTimeout(r, 100));
      }
      expect(url, out).toBeDefined();
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      // The shared OPERATOR_TOKEN is the CLI's too: an operator command works from any process's machine, whose
      // DATA_DIR holds no token file.
      const list = await cli(['--server', url!, 'client', 'list'], { OPERATOR_TOKEN: TOKEN, DATA_DIR: scratch() });
      expect(list.code, list.stderr).toBe(0);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
