import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { attemptProcesses, isWarmTag, processTable } from '@fullstop/engine/sandbox';
import { afterAll, beforeAll } from 'vitest';
import { FAKE_RUNNERS_MODULE } from '../../engine/fixtures/fake-runners.ts';
import { manifest, OPERATOR_TOKEN, type SuiteTest } from '../../engine/helpers.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../../..');
const HEALTH_INTERVAL_MS = 200;
/** A data-directory lock left by a killed server goes stale after ~15 s: until then a new server refuses to start. */
const START_DEADLINE_MS = 60_000;

export const SECRETS = {
  SERVER_KEY: 'ab'.repeat(32),
  OPERATOR_TOKEN,
  SMTP_URL: 'smtp://mailuser:mail-secret-password@127.0.0.1:9',
};

/** Calls `check` every 200 ms until it holds; throws after `timeoutMs`. */
export async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export type RunDetail = {
  status: string;
  tests: { testName: string; status: string; error: string | null; attempts: { status: string; error: string | null }[] }[];
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * The real server (`node --import tsx src/main.ts`, embedded database, the fake runners) on a free port and
 * a temporary DATA_DIR, with a watcher that calls /healthz all along and records how it answered.
 */
export class RealServer {
  readonly dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-chaos-'));
  child: ChildProcess | null = null;
  port = 0;
  readonly health = { calls: 0, failures: [] as string[], slowestMs: 0 };
  #watching: NodeJS.Timeout | null = null;

  constructor(private readonly env: Record<string, string>) {}

  get base() {
    return `http://127.0.0.1:${this.port}`;
  }

  #spawn() {
    const log = openSync(path.join(this.dataDir, 'server.log'), 'a');
    return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverRoot,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        ...SECRETS,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        FULLSTOP_DEMO: '0',
        ENGINE_RETRY_DELAY: '0',
        ENGINE_RUNNERS_MODULE: FAKE_RUNNERS_MODULE,
        ...this.env,
      },
    });
  }

  async start(): Promise<void> {
    this.port ||= await freePort();
    this.child = this.#spawn();
    const deadline = Date.now() + START_DEADLINE_MS;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) {
        await new Promise((r) => setTimeout(r, 1000));
        this.child = this.#spawn();
        continue;
      }
      if (await fetch(`${this.base}/healthz`).then((r) => r.ok).catch(() => false)) return;
      await new Promise((r) => setTimeout(r, 300));
    }
    throw new Error(`the server did not start (see ${this.dataDir}/server.log)`);
  }

  /** Calls /healthz every 200 ms until `stopWatching`, recording failures and the slowest answer. */
  watchHealth(): void {
    this.#watching = setInterval(() => {
      const started = performance.now();
      this.health.calls++;
      void fetch(`${this.base}/healthz`, { signal: AbortSignal.timeout(5000) })
        .then((r) => {
          if (!r.ok) this.health.failures.push(`status ${r.status}`);
        })
        .catch((err: unknown) => this.health.failures.push((err as Error).message))
        .finally(() => (this.health.slowestMs = Math.max(this.health.slowestMs, performance.now() - started)));
    }, HEALTH_INTERVAL_MS);
  }

  stopWatching(): void {
    if (this.#watching) clearInterval(this.#watching);
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async kill(): Promise<void> {
    if (!this.child || !this.running) return;
    const exited = new Promise((r) => this.child!.once('exit', r));
    this.child.kill('SIGKILL');
    await exited;
  }

  async close(): Promise<void> {
    this.stopWatching();
    if (this.child && this.running) {
      const exited = new Promise((r) => this.child!.once('exit', r));
      this.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      await this.kill();
    }
    if (!process.env.KEEP_CHAOS_DIR) rmSync(this.dataDir, { recursive: true, force: true });
  }

  async api<T>(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.base}${url}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  /** A client with this suite; answers its API key. */
  async clientWithSuite(groups: Record<string, SuiteTest[]>): Promise<string> {
    const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    const n = Math.random().toString(36).slice(2, 8);
    const created = await this.api<{ clientId: string }>('/operator/clients', {
      method: 'POST',
      headers: operator,
      body: { name: `Chaos ${n}`, website: 'https://chaos.example', email: `chaos-${n}@example.test`, password: 'chaos password 1', username: `chaos${n}` },
    });
    if (created.status !== 201) throw new Error(`client: ${created.status} ${JSON.stringify(created.body)}`);
    const suite = await this.api(`/operator/clients/${created.body.clientId}/suite`, {
      method: 'POST',
      headers: operator,
      body: { files: [{ path: 'suite.json', content: manifest(groups) }] },
    });
    if (suite.status !== 201) throw new Error(`suite: ${suite.status} ${JSON.stringify(suite.body)}`);
    // Operators see keys masked; the whole key comes from the audited reveal route.
    const revealed = await this.api<{ apiKey: string }>(`/operator/clients/${created.body.clientId}/reveal-api-key`, { method: 'POST', headers: operator });
    if (revealed.status !== 200) throw new Error(`reveal: ${revealed.status} ${JSON.stringify(revealed.body)}`);
    return revealed.body.apiKey;
  }

  async runAll(apiKey: string): Promise<string> {
    return (await this.api<{ runId: string }>('/test/run/all', { headers: { 'x-api-key': apiKey } })).body.runId;
  }

  async detail(apiKey: string, runId: string): Promise<RunDetail> {
    return (await this.api<RunDetail>(`/test/runs/${runId}`, { headers: { 'x-api-key': apiKey } })).body;
  }

  async waitForEnd(apiKey: string, runId: string, timeoutMs: number): Promise<RunDetail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const d = await this.detail(apiKey, runId);
      if (['passed', 'failed', 'error', 'cancelled'].includes(d.status)) return d;
      if (Date.now() > deadline) throw new Error(`run ${runId} did not end: ${JSON.stringify(d)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Files of that name the runs wrote, newest first. */
  runFiles(name: string): string[] {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(p);
        else if (entry.name === name) found.push(p);
      }
    };
    walk(path.join(this.dataDir, 'storage'));
    return found.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  }
}

/** A RealServer started before the tests of the enclosing `describe` and closed after them. */
export function realServerForSuite(env: Record<string, string>): RealServer {
  const server = new RealServer(env);
  beforeAll(() => server.start());
  afterAll(() => server.close());
  return server;
}

/**
 * `fullstop worker` as its own process (PostgreSQL only), on the server's DATA_DIR, with the fake runners.
 * Ready once it logs that it started.
 */
export class WorkerProcess {
  child: ChildProcess | null = null;
  #starts = 0;

  constructor(
    private readonly server: RealServer,
    private readonly env: Record<string, string>,
  ) {}

  async start(): Promise<void> {
    const logFile = path.join(this.server.dataDir, `worker-${++this.#starts}.log`);
    const log = openSync(logFile, 'a');
    this.child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'worker', '--concurrency', '2'], {
      cwd: serverRoot,
      stdio: ['ignore', log, log],
      env: { ...process.env, ...SECRETS, DATA_DIR: this.server.dataDir, LOG_LEVEL: 'info', ENGINE_RUNNERS_MODULE: FAKE_RUNNERS_MODULE, ENGINE_RETRY_DELAY: '0', ...this.env },
    });
    const deadline = Date.now() + START_DEADLINE_MS;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`the worker exited (see ${logFile})`);
      if (readFileSync(logFile, 'utf8').includes('worker started')) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the worker did not start (see ${logFile})`);
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }
}

/** The processes of one attempt (tagged, or descended from a tagged one), with their command lines. */
export function processesOf(tag: string): { pid: number; cmd: string }[] {
  return attemptProcesses(processTable(), tag).map((p) => {
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${p.pid}/cmdline`, 'latin1').split('\0').join(' ');
    } catch {
      // Gone meanwhile.
    }
    return { pid: p.pid, cmd };
  });
}

/** The Chromium processes of one attempt. */
export const chromiumOf = (tag: string) => processesOf(tag).filter((p) => /chrom/.test(p.cmd));

/** Processes of attempts supervised by the process `pid` (their tag starts with it). */
export function processesSupervisedBy(pid: number): number[] {
  const table = processTable();
  // A pre-forked runner waiting in the warm pool (decision 0068) carries its own tag before any attempt takes it;
  // one that was taken is killed with its attempt, so a lone waiting one is the pool, not a leftover.
  const waiting = (p: (typeof table)[number]) => isWarmTag(p.tag) && !table.some((c) => c.ppid === p.pid);
  return table.filter((p) => p.tag?.startsWith(`${pid}.`) && !waiting(p)).map((p) => p.pid);
}
