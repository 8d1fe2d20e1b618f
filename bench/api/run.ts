import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { scratchDatabase } from '../../apps/server/test/helpers/scratch-database.ts';
import { startProcess, stopProcess } from '../server-process.ts';

/**
 * GET /clientProfile/{id} (cached, as served; and with the cache bypassed, i.e. a real database read) and
 * the x-api-key variant, against a bare Fastify route measured in the same run, on PGlite and on PostgreSQL.
 * Each server is its own process, like production; autocannon runs here.
 */
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 10;
// bare-server.ts also listens on bare + 1 (the same route behind the security headers).
const PORTS = { bare: 3125, pglite: 3123, postgres: 3124 };
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Figures {
  name: string;
  rps: number;
  p99: number;
  errors: number;
}

function start(script: string, env: Record<string, string>): Promise<ChildProcess> {
  return startProcess(script, env, `http://127.0.0.1:${env.PORT}/${script.includes('bare') ? 'bare' : 'healthz'}`, { stdout: 'pipe' });
}

async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Figures> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 1 }); // warm-up
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  return { name, rps: Math.round(r.requests.average), p99: r.latency.p99, errors: r.errors + r.non2xx };
}

async function json<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function benchServer(kind: 'pglite' | 'postgres', bare: Figures): Promise<Figures[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `fullstop-bench-${kind}-`));
  const database = scratchDatabase(PG_URL, 'fullstop_bench');
  // An API process without in-process test workers (their queue polling shares the event loop), as at scale.
  const env: Record<string, string> = { DATA_DIR: dataDir, PORT: String(PORTS[kind]), FULLSTOP_DEMO: '0', ENGINE_WORKERS: '0' };
  if (kind === 'postgres') {
    await database.create();
    env.DATABASE_URL = database.url;
  }
  const base = `http://127.0.0.1:${PORTS[kind]}`;
  const server = await start('apps/server/src/main.ts', env);
  const results: Figures[] = [];
  try {
    const operator = readFileSync(path.join(dataDir, 'operator-token'), 'utf8').trim();
    const { clientId } = await json<{ clientId: string }>(`${base}/operator/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator}` },
      body: JSON.stringify({ name: 'Bench', website: 'https://bench.test', email: 'bench@bench.test', password: 'bench password 1' }),
    });
    // Operator answers mask API keys; the whole key takes the audited reveal route.
    const created = await json<{ clientId: string; apiKey: string }>(`${base}/operator/clients/${clientId}/reveal-api-key`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator}` },
      body: '{}',
    });
    const session = await json<{ accessToken: string }>(`${base}/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email: 'bench@bench.test', password: 'bench password 1' }),
    });
    const url = `${base}/clientProfile/${created.clientId}`;
    const auth = { authorization: `Bearer ${session.accessToken}` };
    results.push(await measure(`${kind}: full app GET /healthz (every hook, no handler work)`, `${base}/healthz`));
    results.push(await measure(`${kind}: GET /clientProfile/{id} cached (bearer)`, url, auth));
    results.push(await measure(`${kind}: GET /clientProfile/{id} cached (x-api-key; its owner is remembered on PGlite, read from the DB on PostgreSQL)`, url, { 'x-api-key': created.apiKey }));
    // Every request empties the cache first: the profile comes from the database each time.
    results.push(await measureUncached(`${kind}: GET /clientProfile/{id} uncached (database read)`, url, auth));
  } finally {
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') await database.drop();
  }
  for (const r of results) r.name += `  (${(r.rps / bare.rps).toFixed(2)}x bare)`;
  return results;
}

/** Alternates a clearCache call with each read, then counts only the reads. */
async function measureUncached(name: string, url: string, auth: Record<string, string>): Promise<Figures> {
  const clear = new URL('/clientProfile/clearCache', url).toString();
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      { method: 'POST', path: new URL(clear).pathname, headers: auth },
      { method: 'GET', path: new URL(url).pathname, headers: auth },
    ],
  });
  // Half the requests are the (cheap) clear calls; the figure is the rate of profile reads.
  return { name, rps: Math.round(r.requests.average / 2), p99: r.latency.p99, errors: r.errors + r.non2xx };
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const bareServer = await start('bench/api/bare-server.ts', { PORT: String(PORTS.bare) });
const rows: Figures[] = [];
try {
  const bare = await measure('bare Fastify route', `http://127.0.0.1:${PORTS.bare}/bare`);
  rows.push(bare);
  const headers = await measure('bare Fastify route + security headers (helmet)', `http://127.0.0.1:${PORTS.bare + 1}/bare`);
  headers.name += `  (${(headers.rps / bare.rps).toFixed(2)}x bare)`;
  rows.push(headers);
  rows.push(...(await benchServer('pglite', bare)));
  if (await postgresReachable()) rows.push(...(await benchServer('postgres', bare)));
  else console.log(`PostgreSQL not reachable at ${PG_URL}: skipped`);
  // The baseline again at the end: the machine is shared, so its drift shows here.
  rows.push(await measure('bare Fastify route (again, at the end)', `http://127.0.0.1:${PORTS.bare}/bare`));
} finally {
  await stopProcess(bareServer);
}
console.log(`\n${CONNECTIONS} connections, ${DURATION} s each, ${os.cpus().length} cores\n`);
console.log(['requests/s'.padStart(10), 'p99 ms'.padStart(7), 'errors'.padStart(6), '  what'].join(' '));
for (const r of rows) console.log([String(r.rps).padStart(10), String(r.p99).padStart(7), String(r.errors).padStart(6), ` ${r.name}`].join(' '));
