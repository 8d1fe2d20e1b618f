import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

export interface RunAllFigures {
  runAllSeconds: number;
  longestTest: { name: string; seconds: number };
  singleTests: { name: string; seconds: number }[];
  /** run-all wall time / longest single test alone; target <= 1.2. */
  ratio: number;
  workers: number;
}

interface RunResult {
  status: string;
  tests: { testName: string; status: string }[];
}

/**
 * "Run all" of the demo suite against the product's own server (fresh embedded database, demo client), timed
 * from the request to the answer of `wait`, compared with the longest test of the suite run alone.
 */
export async function measureRunAll(options: { port?: number; workers?: number } = {}): Promise<RunAllFigures> {
  const port = options.port ?? 3153;
  const workers = options.workers ?? 4;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-bench-'));
  const base = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', ENGINE_WORKERS: String(workers) },
  });
  try {
    for (let i = 0; ; i++) {
      if (await fetch(`${base}/healthz`).then((r) => r.ok).catch(() => false)) break;
      if (i > 240) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 500));
    }
    const token = readFileSync(path.join(dataDir, 'operator-token'), 'utf8').trim();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const { clients } = (await (await fetch(`${base}/operator/clients`, { headers })).json()) as { clients: { id: string }[] };
    const clientId = clients[0]!.id;
    const run = async (testName?: string) => {
      const started = performance.now();
      const res = await fetch(`${base}/operator/clients/${clientId}/runs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ wait: true, timeout: 600, ...(testName ? { testName } : {}) }),
      });
      const body = (await res.json()) as RunResult;
      return { seconds: (performance.now() - started) / 1000, body };
    };
    // A first run warms caches (Chromium's, wapiti's, the OS's), as a real server would be warm.
    const warm = await run();
    const all = await run();
    const singleTests: { name: string; seconds: number }[] = [];
    for (const t of warm.body.tests) {
      const one = await run(t.testName);
      singleTests.push({ name: t.testName, seconds: Math.round(one.seconds * 10) / 10 });
    }
    const longest = singleTests.reduce((a, b) => (b.seconds > a.seconds ? b : a));
    return {
      runAllSeconds: Math.round(all.seconds * 10) / 10,
      longestTest: longest,
      singleTests,
      ratio: Math.round((all.seconds / longest.seconds) * 100) / 100,
      workers,
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureRunAll({ workers: Number(process.env.ENGINE_WORKERS ?? 4) });
  console.log(JSON.stringify(figures, null, 2));
  console.log(`run-all ${figures.runAllSeconds} s vs longest single test (${figures.longestTest.name}) ${figures.longestTest.seconds} s: ratio ${figures.ratio} (target <= 1.2)`);
}
