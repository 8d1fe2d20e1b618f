import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import * as hdr from 'hdr-histogram-js';

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
const STORM_CONNECTIONS = 200;
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

function startServer(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
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

/** The site client A's tests run against: a few pages with the usual headers. */
function startSite(): Promise<Server> {
  const page = (title: string) =>
    `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1><a href="/about">About</a></main></body></html>`;
  const site = createServer((req, res) => {
    res.setHeader('content-type', req.url === '/api/status' ? 'application/json' : 'text/html; charset=utf-8');
    res.end(req.url === '/api/status' ? '{"status":"ok"}' : page(req.url === '/about' ? 'About' : 'Home'));
  });
  return new Promise((resolve) => site.listen(0, '127.0.0.1', () => resolve(site)));
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

/** Connections that send half a request and are reset a few milliseconds later, as a misbehaving browser does. */
async function resetStorm(stop: () => boolean): Promise<number> {
  let sent = 0;
  while (!stop()) {
    await Promise.all(
      Array.from({ length: STORM_CONNECTIONS }, () =>
        new Promise<void>((resolve) => {
          const socket = connect(PORT, '127.0.0.1', () => {
            socket.write('GET /test/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n');
            setTimeout(() => {
              socket.resetAndDestroy();
              resolve();
            }, 3);
          });
          socket.on('error', () => resolve());
          sent += 1;
        }),
      ),
    );
    await new Promise((r) => setTimeout(r, 200));
  }
  return sent;
}

/** An APK whose manifest claims little and inflates to 200 MB of zeros. */
function inflationBomb(): Buffer {
  const name = Buffer.from('AndroidManifest.xml');
  const inflated = 200 * 1024 * 1024;
  const data = deflateRawSync(Buffer.alloc(inflated));
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(0, 14); // crc left 0: a bomb does not care
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(inflated, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(inflated, 24);
  central.writeUInt16LE(name.length, 28);
  const centralOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

async function bombUploads(clientId: string, token: string, stop: () => boolean): Promise<{ sent: number; statuses: Record<number, number> }> {
  const bomb = inflationBomb();
  const statuses: Record<number, number> = {};
  let sent = 0;
  while (!stop()) {
    const form = new FormData();
    form.append('file', new Blob([bomb], { type: 'application/vnd.android.package-archive' }), 'bomb.apk');
    const res = await fetch(`${base}/upload/android/${clientId}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } }).catch(() => null);
    statuses[res?.status ?? 0] = (statuses[res?.status ?? 0] ?? 0) + 1;
    await res?.body?.cancel();
    sent += 1;
    await new Promise((r) => setTimeout(r, 500));
  }
  return { sent, statuses };
}

function figures(label: string, reads: Reads): string {
  const ms = (us: number) => (us / 1000).toFixed(1).padStart(8);
  const h = reads.histogram;
  return `${label.padEnd(34)}${ms(h.getValueAtPercentile(50))}${ms(h.getValueAtPercentile(99))}${ms(h.maxValue)}${String(reads.count).padStart(8)}${String(reads.errors).padStart(8)}`;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-bench-reliability-'));
const site = await startSite();
const server = await startServer(dataDir);
try {
  const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
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
  const [loaded, storm, bombs] = await Promise.all([
    readPortal(reader.clientId, readerToken, () => done),
    resetStorm(() => done),
    bombUploads(busy.clientId, busyToken, () => done),
    watcher,
  ]);
  const runs = await Promise.all(
    runIds.map((id) => json<{ status: string }>(`${base}/test/runs/${id}`, { headers: { authorization: `Bearer ${busyToken}` } })),
  );
  const healthy = await fetch(`${base}/healthz`).then((r) => r.ok).catch(() => false);

  console.log(`\n${os.cpus().length} cores; ${READERS} readers, one request at a time each (GET /clientProfile/{id}, GET /test/runs)\n`);
  console.log(`${'phase'.padEnd(34)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'max ms'.padStart(8)}${'reads'.padStart(8)}${'errors'.padStart(8)}`);
  console.log(figures('idle', idle));
  console.log(figures(`loaded (${((Date.now() - started) / 1000).toFixed(0)} s)`, loaded));
  const ratio = loaded.histogram.getValueAtPercentile(99) / idle.histogram.getValueAtPercentile(99);
  console.log(`\np99 loaded / idle: ${ratio.toFixed(2)} (target <= 3), errors: ${idle.errors + loaded.errors} (target 0)`);
  console.log(`load: ${RUN_ALLS} run-alls (${runs.map((r) => r.status).join(', ')}), ${storm} reset connections, ${bombs.sent} bomb uploads (answers ${JSON.stringify(bombs.statuses)})`);
  console.log(`server still healthy afterwards: ${healthy}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  site.close();
  rmSync(dataDir, { recursive: true, force: true });
}
