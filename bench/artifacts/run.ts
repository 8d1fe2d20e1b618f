/**
 * Artifact store benchmarks (figures, never pass/fail; see ../README.md). A 500 MB object goes through a Fastify
 * server process (server.ts, a child process of its own so that its memory is measured alone) into the store, as
 * an upload does, and back out over HTTP with `reply.send(body)` and its content-length, as the report route
 * serves a file. Measured per store, each phase in a fresh server process: time, throughput and the server's peak
 * RSS. Baseline: the data-directory store; against it, in the same run, the S3 store on s3rver (a local
 * S3-compatible server, itself in another process: its own cost on this machine is part of the S3 figures).
 *
 *   npm run bench:artifacts      (BENCH_MB=500: the object's size in MB of 1,000,000 bytes)
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { startS3 } from '../../apps/server/test/helpers/s3.ts';

const MB = 1_000_000;
const SIZE = Number(process.env.BENCH_MB ?? 500) * MB;
const KEY = 'uploads/bench-client/big.bin';
const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

type StoreSettings = { store: 'data-dir'; root: string } | { store: 's3'; env: Record<string, string> };
interface Memory {
  rss: number;
  peakRss: number;
}
interface Phase {
  ms: number;
  idleRss: number;
  peakRss: number;
}

/** 1 MiB blocks of random bytes, cycled: the client's own cost stays small and the bytes are not all alike. */
const blocks = Array.from({ length: 16 }, () => randomBytes(1024 * 1024));
function* body(total: number): Generator<Buffer> {
  for (let sent = 0, i = 0; sent < total; i++) {
    const block = blocks[i % blocks.length]!;
    const part = total - sent < block.length ? block.subarray(0, total - sent) : block;
    sent += part.length;
    yield part;
  }
}

async function startServer(settings: StoreSettings): Promise<{ port: number; child: ChildProcessWithoutNullStreams }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, JSON.stringify(settings)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stdin.on('error', () => {});
  child.stderr.on('error', () => {});
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr = (stderr + s).slice(-4_000)));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bench server exited (${code}): ${stderr.trim()}`)));
    child.stdout.on('error', reject);
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]!) as { port: number }).port);
    });
  });
  child.removeAllListeners('exit');
  child.on('error', () => {});
  return { port, child };
}

async function stopServer(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function request(port: number, method: string, url: string, send?: Readable): Promise<{ status: number; bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers: send ? { 'content-type': 'application/octet-stream', 'content-length': SIZE } : {} });
    req.on('error', reject);
    req.on('response', (res) => {
      res.on('error', reject);
      let bytes = 0;
      const kept: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // Only small answers (JSON) are kept; the object's bytes are counted and dropped, as a browser saving it would.
        if (bytes < 64 * 1024) kept.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, text: Buffer.concat(kept).toString() }));
    });
    if (send) pipeline(send, req).catch(reject);
    else req.end();
  });
}

const memoryOf = async (port: number) => JSON.parse((await request(port, 'GET', '/memory')).text) as Memory;

/** One phase in a fresh server process: its memory before (idle) and its peak by the end. */
async function phase(settings: StoreSettings, work: (port: number) => Promise<void>): Promise<Phase> {
  const { port, child } = await startServer(settings);
  try {
    const idle = await memoryOf(port);
    const started = performance.now();
    await work(port);
    const ms = performance.now() - started;
    const after = await memoryOf(port);
    return { ms, idleRss: idle.rss, peakRss: after.peakRss };
  } finally {
    await stopServer(child);
  }
}

async function upload(settings: StoreSettings): Promise<Phase> {
  return phase(settings, async (port) => {
    const res = await request(port, 'PUT', `/objects/${KEY}`, Readable.from(body(SIZE)));
    if (res.status !== 200 || (JSON.parse(res.text) as { bytes: number }).bytes !== SIZE) throw new Error(`upload failed: ${res.status} ${res.text}`);
  });
}

async function download(settings: StoreSettings): Promise<Phase> {
  return phase(settings, async (port) => {
    const res = await request(port, 'GET', `/objects/${KEY}`);
    if (res.status !== 200 || res.bytes !== SIZE) throw new Error(`download failed: ${res.status}, ${res.bytes} of ${SIZE} bytes`);
  });
}

const mbOf = (n: number) => `${(n / MB).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rate = (ms: number) => SIZE / MB / (ms / 1000);
const ratio = (n: number, base: number) => `${(n / base).toFixed(2)}x`;

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'fullstop-bench-artifacts-'));
  const s3 = await startS3();
  try {
    const dataDir: StoreSettings = { store: 'data-dir', root: path.join(root, 'storage') };
    const onS3: StoreSettings = { store: 's3', env: s3.env };
    console.log(`\n## A ${mbOf(SIZE)} object through a Fastify server process: upload into the store, download over HTTP`);
    const results: Record<'dataDir' | 's3', { up: Phase; down: Phase }> = {} as never;
    for (const [name, settings] of [['dataDir', dataDir], ['s3', onS3]] as const) {
      const up = await upload(settings);
      console.log(`${name === 'dataDir' ? 'data dir' : 'S3      '}: upload ${seconds(up.ms)} (${rate(up.ms).toFixed(0)} MB/s, peak RSS ${mbOf(up.peakRss)})`);
      const down = await download(settings);
      console.log(`${name === 'dataDir' ? 'data dir' : 'S3      '}: download ${seconds(down.ms)} (${rate(down.ms).toFixed(0)} MB/s, peak RSS ${mbOf(down.peakRss)})`);
      results[name] = { up, down };
    }
    const { dataDir: d, s3: s } = results;
    console.log('\n| figure | data dir (baseline) | S3 on s3rver | ratio S3 / data dir |');
    console.log('|---|---|---|---|');
    console.log(`| upload time | ${seconds(d.up.ms)} | ${seconds(s.up.ms)} | ${ratio(s.up.ms, d.up.ms)} |`);
    console.log(`| upload throughput | ${rate(d.up.ms).toFixed(0)} MB/s | ${rate(s.up.ms).toFixed(0)} MB/s | ${ratio(rate(s.up.ms), rate(d.up.ms))} |`);
    console.log(`| upload: server peak RSS | ${mbOf(d.up.peakRss)} | ${mbOf(s.up.peakRss)} | ${ratio(s.up.peakRss, d.up.peakRss)} |`);
    console.log(`| download time | ${seconds(d.down.ms)} | ${seconds(s.down.ms)} | ${ratio(s.down.ms, d.down.ms)} |`);
    console.log(`| download throughput | ${rate(d.down.ms).toFixed(0)} MB/s | ${rate(s.down.ms).toFixed(0)} MB/s | ${ratio(rate(s.down.ms), rate(d.down.ms))} |`);
    console.log(`| download: server peak RSS | ${mbOf(d.down.peakRss)} | ${mbOf(s.down.peakRss)} | ${ratio(s.down.peakRss, d.down.peakRss)} |`);
    console.log(`| server RSS at rest (before the work) | ${mbOf(d.down.idleRss)} | ${mbOf(s.down.idleRss)} | ${ratio(s.down.idleRss, d.down.idleRss)} |`);
    console.log(`\nPeak RSS above rest: upload ${mbOf(d.up.peakRss - d.up.idleRss)} (data dir) vs ${mbOf(s.up.peakRss - s.up.idleRss)} (S3), ` +
      `download ${mbOf(d.down.peakRss - d.down.idleRss)} vs ${mbOf(s.down.peakRss - s.down.idleRss)}; the object is ${mbOf(SIZE)}.`);
  } finally {
    // 500 MB in each store: gone with the folders (the data directory's, and s3rver's with close()).
    await rm(root, { recursive: true, force: true });
    await s3.close();
  }
}

await main();
