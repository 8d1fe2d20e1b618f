/**
 * Live events at scale (figures, never pass/fail; see ../README.md): the real server (apps/server/src/main.ts, its
 * own process) on a scratch PostgreSQL database, 1,000 open SSE streams (GET /test/events), and a "worker" in
 * this process that does what `fullstop worker` does when a test makes progress: it writes the run test's row,
 * then emits the event on its engine's bus. Measured in the same run, one mode after the other:
 *
 *   before  EVENTS_VIA_NOTIFY=false: the server's event hub polls every EVENT_STREAM_POLL_MS (2 s) for all streams
 *   after   EVENTS_VIA_NOTIFY=true:  the worker's bus NOTIFYs, the server's hub LISTENs (no poll)
 *
 * For each mode: database transactions per second (pg_stat_database.xact_commit of the scratch database;
 * pg_stat_statements is not loaded here) with the streams open minus the same with none open (the worker's
 * writes and the server's own background work), and the latency from the write's commit to each stream's
 * receipt of the change (p50, p95, max over every stream and change), plus how many changes reached them.
 *
 *   npm run bench:events   (BENCH_STREAMS=1000, BENCH_WINDOW=15 s, BENCH_RATE=5 changes/s, BENCH_DATABASE_URL)
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { loadEnv } from '../../apps/server/src/config/env.ts';
import { openPostgres } from '../../apps/server/src/db/database.ts';
import { engineConfig } from '../../apps/server/src/features/engine/config.ts';
import { createEngine } from '../../apps/server/src/features/engine/engine-service.ts';
import { testEventOf } from '../../apps/server/src/features/runs/mappers.ts';
import { runTestsOf, updateRunTest } from '../../apps/server/src/features/runs/run-repository.ts';
import { ClusterChannel } from '../../apps/server/src/lib/cluster-channel.ts';
import { dataPaths } from '../../apps/server/src/lib/data-dir.ts';
import { loadServerKeys } from '../../apps/server/src/lib/server-keys.ts';
import { scratchDatabase } from '../../apps/server/test/helpers/scratch-database.ts';
import { startProcess, stopProcess } from '../server-process.ts';
// Counts this process's own queries (the worker's writes and NOTIFYs, the statistics reads).
import { pgQueries } from '../pg-queries.ts';
// The server's Fastify declarations (app.db, app.env ...), which the engine's modules refer to.
import type {} from '../../apps/server/src/app.ts';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const WINDOW_S = Number(process.env.BENCH_WINDOW ?? 30);
const SETTLE_MS = Number(process.env.BENCH_SETTLE ?? 11) * 1000;
const RATE = Number(process.env.BENCH_RATE ?? 5);
const TESTS = 10;
const PORT = 4310;

interface ModeFigures {
  name: string;
  idle: Counters;
  open: Counters;
  latencies: number[];
  expected: number;
  pollMs: number | null;
}

function startServer(env: Record<string, string>): Promise<ChildProcess> {
  return startProcess('apps/server/src/main.ts', env, `http://127.0.0.1:${PORT}/healthz`, { name: 'the server' });
}

async function json<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface Counters {
  /** Transactions committed in the scratch database. */
  tx: number;
  /** Scans of the run tests table: what the streams' poll reads (and the worker's update by id). */
  scans: number;
}

/** Cumulative statistics of the scratch database, read on a connection to it. */
async function counters(stats: pg.Client): Promise<Counters> {
  await stats.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await stats.query<{ tx: string; scans: string }>(
    `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS tx,
            (SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_user_tables WHERE relname = 'engine_run_tests') AS scans`,
  );
  return { tx: Number(rows[0]?.tx ?? 0), scans: Number(rows[0]?.scans ?? 0) };
}

/**
 * The server's rates over a window: what the counters gained per second, less this process's own share (each
 * of its queries is a transaction; each of the worker's writes scans the table once, by its primary key).
 */
async function rates(stats: pg.Client, seconds: number, writes: () => number): Promise<Counters> {
  const from = await counters(stats);
  const own = pgQueries.count;
  const wrote = writes();
  const t = performance.now();
  await sleep(seconds * 1000);
  const ownDuring = pgQueries.count - own;
  const wroteDuring = writes() - wrote;
  const to = await counters(stats);
  const s = (performance.now() - t) / 1000;
  return { tx: (to.tx - from.tx - ownDuring) / s, scans: (to.scans - from.scans - wroteDuring) / s };
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function benchMode(name: string, viaNotify: boolean, scratchUrl: string, stats: pg.Client): Promise<ModeFigures> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-bench-events-'));
  const env = {
    DATA_DIR: dataDir,
    PORT: String(PORT),
    DATABASE_URL: scratchUrl,
    FULLSTOP_DEMO: '0',
    ENGINE_WORKERS: '0',
    EVENTS_VIA_NOTIFY: String(viaNotify),
    EVENT_STREAMS_PER_CREDENTIAL: String(STREAMS),
  };
  const server = await startServer(env);
  const base = `http://127.0.0.1:${PORT}`;
  const aborts: AbortController[] = [];
  const database = openPostgres(scratchUrl, 4);
  const channel = viaNotify ? new ClusterChannel(scratchUrl, database.db, pino({ level: 'warn' })) : null;
  try {
    const operator = { authorization: `Bearer ${readFileSync(path.join(dataDir, 'operator-token'), 'utf8').trim()}` };
    const email = `bench-${name}@bench.test`;
    const { clientId } = await json<{ clientId: string }>(`${base}/operator/clients`, {
      method: 'POST',
      headers: operator,
      body: JSON.stringify({ name: `Bench ${name}`, website: 'https://bench.test', email, password: 'bench password 1' }),
    });
    const { apiKey } = await json<{ apiKey: string }>(`${base}/operator/clients/${clientId}/reveal-api-key`, { method: 'POST', headers: operator, body: '{}' });
    const suite = { version: 1, groups: [{ name: 'Checks', tests: Array.from({ length: TESTS }, (_, i) => ({ name: `check ${i + 1}`, kind: 'api', options: { requests: [{ name: 'home', path: '/', expect: { status: 200 } }] } })) }] };
    await json(`${base}/operator/clients/${clientId}/suite`, { method: 'POST', headers: operator, body: JSON.stringify({ files: [{ path: 'suite.json', content: JSON.stringify(suite) }] }) });
    const { runId } = await json<{ runId: string }>(`${base}/test/run/all`, { method: 'GET', headers: { 'x-api-key': apiKey } });

    // The worker: another process's engine, as `fullstop worker` builds it.
    await channel?.start();
    const engine = createEngine({
      db: database.db,
      raw: database.raw,
      paths: dataPaths(dataDir),
      config: engineConfig(loadEnv({ NODE_ENV: 'production', DATA_DIR: dataDir })),
      keys: loadServerKeys(dataDir, undefined),
      log: pino({ level: 'silent' }),
      demoClientId: null,
      channel,
    });
    const rows = await runTestsOf(database.db, runId);
    const writtenAt = new Map<number, number>();
    let seq = 0;
    let writes = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const n = seq++;
        const rt = rows[n % rows.length]!;
        const row = await updateRunTest(database.db, rt.id, { status: 'running', progress: { done: n, total: 1_000_000, message: `bench ${n}` }, updatedAt: new Date() });
        writtenAt.set(n, performance.now());
        writes += 1;
        engine.deps.bus.emit(clientId, { type: 'test', data: testEventOf(row!) });
        await sleep(1000 / RATE);
      }
    })();

    // Idle: the worker writes, no stream is open. Backends report their statistics up to 10 s late: settle first.
    await sleep(SETTLE_MS);
    const idle = await rates(stats, WINDOW_S, () => writes);

    // The streams: each one records when each change reached it.
    let windowFrom = Infinity;
    let windowTo = Infinity;
    const latencies: number[] = [];
    let snapshots = 0;
    const open = async () => {
      const ac = new AbortController();
      aborts.push(ac);
      const res = await fetch(`${base}/test/events`, { headers: { 'x-api-key': apiKey }, signal: ac.signal });
      if (res.status !== 200) throw new Error(`stream refused: ${res.status} ${await res.text()}`);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      void (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            const now = performance.now();
            buffer += decoder.decode(value, { stream: true });
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const message = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              if (message.startsWith('event: snapshot')) snapshots += 1;
              const m = /"message":"bench (\d+)"/.exec(message);
              if (!m) continue;
              const n = Number(m[1]);
              if (n >= windowFrom && n < windowTo) latencies.push(now - writtenAt.get(n)!);
            }
          }
        } catch {
          // aborted at the end
        }
      })();
    };
    for (let i = 0; i < STREAMS; i += 50) await Promise.all(Array.from({ length: Math.min(50, STREAMS - i) }, open));
    while (snapshots < STREAMS) await sleep(50);
    // Opening them read a snapshot each: settle, so that burst is out of the window.
    await sleep(SETTLE_MS);
    windowFrom = seq;
    const opened = await rates(stats, WINDOW_S, () => writes);
    windowTo = seq;
    // Let the last changes of the window arrive (a poll interval and more).
    await sleep(3000);
    writing = false;
    await writer;
    await engine.stop();
    return { name, idle, open: opened, latencies, expected: (windowTo - windowFrom) * STREAMS, pollMs: viaNotify ? null : 2000 };
  } finally {
    for (const ac of aborts) ac.abort();
    await channel?.close();
    await stopProcess(server);
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const scratch = scratchDatabase(PG_URL, 'fullstop_bench_events');
await scratch.create();
const stats = new pg.Client({ connectionString: scratch.url });
stats.on('error', () => {});
await stats.connect();
const results: ModeFigures[] = [];
try {
  // The schema once, by a first server start, so both modes begin alike.
  const warm = mkdtempSync(path.join(os.tmpdir(), 'fullstop-bench-events-'));
  await stopProcess(await startServer({ DATA_DIR: warm, PORT: String(PORT), DATABASE_URL: scratch.url, FULLSTOP_DEMO: '0', ENGINE_WORKERS: '0' }));
  rmSync(warm, { recursive: true, force: true });
  results.push(await benchMode('before', false, scratch.url, stats));
  results.push(await benchMode('after', true, scratch.url, stats));
} finally {
  await stats.end();
  await scratch.drop();
}

const by = (r: ModeFigures, k: keyof Counters) => r.open[k] - r.idle[k];
const p95 = (r: ModeFigures) => percentile([...r.latencies].sort((x, y) => x - y), 0.95);
console.log(`\n## Live events: ${STREAMS} SSE streams, ${RATE} changes/s written by another process, ${WINDOW_S} s windows, ${os.cpus().length} cores`);
console.log("The server's tx/s: pg_stat_database.xact_commit less this process's queries; its scans/s: seq + idx scans of");
console.log("engine_run_tests less the worker's writes (pg_stat_statements is not loaded). 'streams': with the streams open");
console.log("minus the same window with none open (the server's own jobs: queue maintenance, alerts, schedules).\n");
console.log(['mode'.padEnd(15), 'tx/s none'.padStart(9), 'tx/s open'.padStart(9), 'streams'.padStart(8), 'scans none'.padStart(10), 'scans open'.padStart(10), 'streams'.padStart(8), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'max ms'.padStart(8), 'delivered'.padStart(14)].join(' '));
for (const r of results) {
  const sorted = [...r.latencies].sort((x, y) => x - y);
  console.log(
    [
      (r.pollMs ? `${r.name} (poll)` : `${r.name} (NOTIFY)`).padEnd(15),
      r.idle.tx.toFixed(1).padStart(9),
      r.open.tx.toFixed(1).padStart(9),
      by(r, 'tx').toFixed(2).padStart(8),
      r.idle.scans.toFixed(1).padStart(10),
      r.open.scans.toFixed(1).padStart(10),
      by(r, 'scans').toFixed(2).padStart(8),
      percentile(sorted, 0.5).toFixed(1).padStart(8),
      percentile(sorted, 0.95).toFixed(1).padStart(8),
      (sorted.at(-1) ?? NaN).toFixed(1).padStart(8),
      `${r.latencies.length}/${r.expected}`.padStart(14),
    ].join(' '),
  );
}
const [before, after] = results;
if (before && after) {
  console.log(
    `\nafter/before: latency p95 ${(p95(after) / p95(before)).toFixed(3)}x; stream-caused scans/s ${by(after, 'scans').toFixed(2)} vs ${by(before, 'scans').toFixed(2)}, tx/s ${by(after, 'tx').toFixed(2)} vs ${by(before, 'tx').toFixed(2)}`,
  );
  console.log("(one poll serves every stream of a process, so 'before' costs one query per EVENT_STREAM_POLL_MS whatever the stream count;");
  console.log(" the poll delivers a row's latest state: changes to one row between two polls arrive as one;");
  console.log(" with NOTIFY a listening connection counts one transaction per notification it reads, streams or none)");
}
