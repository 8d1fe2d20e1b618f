import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import os, { setPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as hdr from 'hdr-histogram-js';
import pg from 'pg';
import type { PressureCommand, PressureMessage } from './pressure.ts';

/**
 * A portal read's latency (p50, p99) on an idle server, then on the same server while four run-alls of another
 * client, a storm of reset connections and inflation-bomb uploads hit it at once. The figure is the ratio of
 * the two p99s in one run (target: loaded p99 <= 3 x idle p99, 0 errors). The server is a real process on
 * the embedded database, as `npm start` runs it; everything here talks to it over loopback.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const PORT = Number(process.env.BENCH_PORT ?? 3127);
const base = `http://127.0.0.1:${PORT}`;
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 15);
const MAX_LOADED_SECONDS = Number(process.env.BENCH_LOADED_SECONDS ?? 120);
/** Concurrent readers, each one request at a time: a handful of people using the portal. */
const READERS = 4;
/** Pause between a reader's requests: about 4 x 20 = 80 reads a second, a busy portal, not a load test. */
const READER_PAUSE_MS = 50;
const RUN_ALLS = 4;
const OPERATOR_TOKEN = 'fso_bench-operator-token-0123456789abcdef';

interface Reads {
  histogram: hdr.Histogram;
  errors: number;
  count: number;
}

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const postgresReachable = () => admin(async () => true).catch(() => false);

async function createDatabase(name: string): Promise<string> {
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const dropDatabase = (name: string) => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

function startServer(dataDir: string, databaseUrl?: string): Promise<ChildProcess> {
  // BENCH_PROFILE=<dir> writes the server's CPU profile there (open it in Chrome's DevTools).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      FULLSTOP_DEMO: '0',
      OPERATOR_TOKEN,
      ENGINE_ALLOW_PRIVATE_TARGETS: '1',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
    const poll = async () => {
      if (await fetch(`${base}/healthz`).then((r) => r.ok).catch(() => false)) return resolve(child);
      setTimeout(poll, 300);
    };
    void poll();
  });
}

function suiteOf(): string {
  return JSON.stringify({
    version: 1,
    groups: [
      {
        name: 'Busy',
        tests: [
          { name: 'Accessibility', kind: 'accessibility', options: { pages: ['/', '/about'] } },
          { name: 'Load', kind: 'load', options: { requests: [{ path: '/' }], connections: 10, durationSeconds: 5 } },
          { name: 'Status API', kind: 'api', options: { requests: [{ name: 'status', path: '/api/status', expect: { status: 200 } }] } },
          { name: 'Headers', kind: 'security-checks', options: { pages: ['/'], requireHttps: false } },
        ],
      },
    ],
  });
}

/** READERS loops of portal reads (profile, run history) until `until` says stop; latency in microseconds. */
async function readPortal(clientId: string, token: string, until: () => boolean): Promise<Reads> {
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
  const agent = new Agent({ keepAlive: true, maxSockets: READERS });
  const paths = [`/clientProfile/${clientId}`, '/test/runs?limit=10'];
  let errors = 0;
  let count = 0;
  const once = (p: string) =>
    new Promise<void>((resolve) => {
      const started = process.hrtime.bigint();
      const req = httpRequest(`${base}${p}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.on('error', () => {});
        res.resume();
        res.on('end', () => {
          histogram.recordValue(Number((process.hrtime.bigint() - started) / 1000n));
          if (res.statusCode !== 200) errors += 1;
          count += 1;
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        count += 1;
        resolve();
      });
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.end();
    });
  await Promise.all(
    Array.from({ length: READERS }, async (_, i) => {
      for (let n = i; !until(); n++) {
        await once(paths[n % paths.length]!);
        await new Promise((r) => setTimeout(r, READER_PAUSE_MS));
      }
    }),
  );
  agent.destroy();
  return { histogram, errors, count };
}

function figures(label: string, reads: Reads): string {
  const ms = (us: number) => (us / 1000).toFixed(1).padStart(8);
  const h = reads.histogram;
  return `${label.padEnd(34)}${ms(h.getValueAtPercentile(50))}${ms(h.getValueAtPercentile(99))}${ms(h.maxValue)}${String(reads.count).padStart(8)}${String(reads.errors).padStart(8)}`;
}

/**
 * The site (mode `site`), and the reset storm and bomb uploads (mode `attack`), each in a process of its own
 * (pressure.ts). A client's site runs on its own machines; here it shares our two cores, so it runs niced like
 * the runners, or the load test's requests to it would be measured as our server's slowness.
 */
function startPressure(mode: 'site' | 'attack'): Promise<{ child: ChildProcess; siteUrl: string }> {
  const child = fork(path.join(here, 'pressure.ts'), [mode], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (mode === 'site' && child.pid) setPriority(child.pid, 10);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the pressure process exited with ${code}`)));
    child.once('message', (m: PressureMessage) => {
      if (m.type === 'site') resolve({ child, siteUrl: m.url });
    });
  });
}

function stopPressure(child: ChildProcess): Promise<Extract<PressureMessage, { type: 'stopped' }>> {
  return new Promise((resolve) => {
    child.on('message', (m: PressureMessage) => {
      if (m.type === 'stopped') resolve(m);
    });
    child.send({ type: 'stop' } satisfies PressureCommand);
  });
}

/** One server on this database: idle figures, then the same reads under load. */
async function benchOnce(database: 'pglite' | 'postgres'): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-bench-reliability-'));
  const dbName = `fullstop_bench_reliability_${Date.now()}`;
  const databaseUrl = database === 'postgres' ? await createDatabase(dbName) : undefined;
  const site = await startPressure('site');
  const pressure = await startPressure('attack');
  const server = await startServer(dataDir, databaseUrl);
  try {
    const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    const siteUrl = site.siteUrl;
    const busy = await json<{ clientId: string }>(`${base}/operator/clients`, {
      method: 'POST',
      headers: operator,
      body: JSON.stringify({ name: 'Busy Co', website: siteUrl, email: 'busy@bench.test', password: 'busy bench password' }),
    });
    const reader = await json<{ clientId: string }>(`${base}/operator/clients`, {
      method: 'POST',
      headers: operator,
      body: JSON.stringify({ name: 'Reader Co', website: 'https://reader.example', email: 'reader@bench.test', password: 'reader bench password' }),
    });
    await json(`${base}/operator/clients/${busy.clientId}/suite`, {
      method: 'POST',
      headers: operator,
      body: JSON.stringify({ files: [{ path: 'suite.json', content: suiteOf() }] }),
    });
    const login = (email: string, password: string) =>
      json<{ accessToken: string }>(`${base}/auth/login`, { method: 'POST', body: JSON.stringify({ email, password }) });
    const busyToken = (await login('busy@bench.test', 'busy bench password')).accessToken;
    const readerToken = (await login('reader@bench.test', 'reader bench password')).accessToken;

    // Warm-up, then the idle figures.
    const warm = Date.now() + 2000;
    await readPortal(reader.clientId, readerToken, () => Date.now() > warm);
    const idleEnd = Date.now() + IDLE_SECONDS * 1000;
    const idle = await readPortal(reader.clientId, readerToken, () => Date.now() > idleEnd);

    // Loaded: four run-alls, a reset storm and bomb uploads, until every run has ended.
    const runIds: string[] = [];
    for (let i = 0; i < RUN_ALLS; i++) {
      const queued = await json<{ runId: string }>(`${base}/test/run/all`, { headers: { authorization: `Bearer ${busyToken}` } });
      runIds.push(queued.runId);
    }
    pressure.child.send({ type: 'start', base, clientId: busy.clientId, token: busyToken } satisfies PressureCommand);
    let done = false;
    const started = Date.now();
    const watcher = (async () => {
      while (!done && Date.now() - started < MAX_LOADED_SECONDS * 1000) {
        const states = await Promise.all(
          runIds.map((id) => json<{ status: string }>(`${base}/test/runs/${id}`, { headers: { authorization: `Bearer ${busyToken}` } })),
        );
        if (states.every((s) => !['queued', 'running'].includes(s.status))) break;
        await new Promise((r) => setTimeout(r, 1000));
      }
      done = true;
    })();
    const [loaded] = await Promise.all([readPortal(reader.clientId, readerToken, () => done), watcher]);
    const pressed = await stopPressure(pressure.child);
    const runs = await Promise.all(
      runIds.map((id) =>
        json<{ status: string; tests: { testName: string; status: string; error?: string | null }[] }>(`${base}/test/runs/${id}`, {
          headers: { authorization: `Bearer ${busyToken}` },
        }),
      ),
    );
    const healthy = await fetch(`${base}/healthz`).then((r) => r.ok).catch(() => false);

    console.log(`\n${database === 'postgres' ? 'PostgreSQL' : 'embedded database (PGlite, in the API process)'}, ${os.cpus().length} cores; ${READERS} readers, one request at a time each (GET /clientProfile/{id}, GET /test/runs)\n`);
    console.log(`${'phase'.padEnd(34)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'max ms'.padStart(8)}${'reads'.padStart(8)}${'errors'.padStart(8)}`);
    console.log(figures('idle', idle));
    console.log(figures(`loaded (${((Date.now() - started) / 1000).toFixed(0)} s)`, loaded));
    const ratio = loaded.histogram.getValueAtPercentile(99) / idle.histogram.getValueAtPercentile(99);
    console.log(`\np99 loaded / idle: ${ratio.toFixed(2)} (target <= 3), errors: ${idle.errors + loaded.errors} (target 0)`);
    console.log(`load: ${RUN_ALLS} run-alls (${runs.map((r) => r.status).join(', ')}), ${pressed.resets} reset connections, ${pressed.bombs} bomb uploads (answers ${JSON.stringify(pressed.statuses)})`);
    console.log(`tests of the first run: ${runs[0]!.tests.map((t) => `${t.testName} ${t.status}${t.error ? ` (${t.error})` : ''}`).join('; ')}`);
    console.log(`server still healthy afterwards: ${healthy}`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    pressure.child.kill();
    site.child.kill();
    rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) await dropDatabase(dbName);
  }
}

for (const database of (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',')) {
  if (database === 'postgres' && !(await postgresReachable())) {
    console.log(`\nPostgreSQL not reachable at ${PG_URL}: skipped`);
    continue;
  }
  await benchOnce(database === 'postgres' ? 'postgres' : 'pglite');
}
