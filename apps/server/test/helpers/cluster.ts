import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/fullstop.js');
/** What a process's output keeps for the failure message: its last lines are what explain a death. */
const OUTPUT_TAIL_CHARS = 20_000;

/** Every process any cluster started: killed when the test process ends, however it ends. */
const everyChild = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of everyChild) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/**
 * One `fullstop <command>` process of a multi-process installation, on a DATA_DIR of its own. Its output is kept;
 * a death nobody asked for is recorded (and printed with its output), so every later step fails saying which
 * process died and what it said last.
 */
export class ClusterProcess {
  readonly dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-cluster-'));
  readonly child: ChildProcess;
  #output = '';
  #stopping = false;
  #waiters = new Set<() => void>();
  died: string | null = null;
  readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    args: string[],
    env: Record<string, string>,
  ) {
    this.child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env, DATA_DIR: this.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    everyChild.add(this.child);
    const take = (chunk: Buffer) => {
      this.#output = (this.#output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
      for (const w of this.#waiters) w();
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
    this.child.stdout!.on('error', () => {});
    this.child.stderr!.on('error', () => {});
    this.child.on('error', (err) => {
      this.died = `${name} could not start: ${err.message}`;
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        everyChild.delete(this.child);
        if (!this.#stopping) {
          this.died = `${name} exited unexpectedly (code ${code}, signal ${signal}); its last output:\n${this.#output}`;
          console.error(this.died);
        }
        for (const w of this.#waiters) w();
        resolve();
      });
    });
  }

  get output(): string {
    return this.#output;
  }

  /** The first match of `pattern` in the output, once it appears; throws if the process dies or `ms` pass. */
  waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`${this.name}: no ${pattern} within ${ms} ms; its last output:\n${this.#output.slice(-4000)}`));
      }, ms);
      const check = () => {
        const match = pattern.exec(this.#output);
        if (match || this.died) {
          clearTimeout(timer);
          this.#waiters.delete(check);
          if (match) resolve(match);
          else reject(new Error(this.died!));
        }
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** Throws if the process died: a later failure then says why. */
  assertAlive(): void {
    if (this.died) throw new Error(this.died);
  }

  /** SIGTERM, then SIGKILL after `graceMs`; removes the DATA_DIR. */
  async stop(graceMs = 10_000): Promise<void> {
    this.#stopping = true;
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** `fullstop serve` on a port the OS chooses; ready once it logs its address. */
export class ApiProcess extends ClusterProcess {
  base = '';

  constructor(name: string, env: Record<string, string>) {
    super(name, ['serve'], { ...env, PORT: '0', HOST: '127.0.0.1' });
  }

  async ready(ms = 90_000): Promise<void> {
    this.base = (await this.waitFor(/ready at (http:\/\/127\.0\.0\.1:\d+)/, ms))[1]!;
    const health = await fetch(`${this.base}/healthz`);
    if (!health.ok) throw new Error(`${this.name}: /healthz answered ${health.status}`);
  }

  /** A JSON call; answers the status, the parsed body (null when none) and the raw bytes. */
  async call<T = unknown>(
    url: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: T; bytes: Buffer; headers: Headers }> {
    this.assertAlive();
    const res = await fetch(`${this.base}${url}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    let body: unknown = null;
    if ((res.headers.get('content-type') ?? '').startsWith('application/json')) body = JSON.parse(bytes.toString());
    return { status: res.status, body: body as T, bytes, headers: res.headers };
  }
}

/** `fullstop worker --concurrency n`; ready once it logs that it started, with its worker id. */
export class WorkerProcess extends ClusterProcess {
  workerId = '';

  constructor(name: string, env: Record<string, string>, concurrency = 2) {
    super(name, ['worker', '--concurrency', String(concurrency)], env);
  }

  async ready(ms = 90_000): Promise<void> {
    const line = (await this.waitFor(/^.*"msg":"worker started".*$/m, ms))[0];
    this.workerId = (JSON.parse(line) as { workerId: string }).workerId;
  }
}
