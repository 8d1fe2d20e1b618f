import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from '../../config/env.ts';
import { startS3, type TestS3 } from '../../../test/helpers/s3.ts';
import { type ArtifactStore, BadArtifactKeyError, DataDirStore, s3ConfigOf } from './index.ts';
import { S3Store, type S3StoreOptions } from './s3-store.ts';

const MIB = 1024 * 1024;
/** S3's smallest part, so a few megabytes already make a multipart upload of several parts. */
const PART = 5 * MIB;

let s3: TestS3;
let scratch: string;

beforeAll(async () => {
  s3 = await startS3();
  scratch = await mkdtemp(path.join(tmpdir(), 'fullstop-artifact-store-'));
});

afterAll(async () => {
  await s3?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const s3Store = (env: Record<string, string> = {}, options: S3StoreOptions = {}) =>
  new S3Store(s3ConfigOf(loadEnv({ NODE_ENV: 'test', ...s3.env, ...env })), { partSize: PART, listPageSize: 2, ...options });

let dirs = 0;
const freshDir = async (name: string) => {
  const dir = path.join(scratch, `${name}-${++dirs}`);
  await mkdir(dir, { recursive: true });
  return dir;
};

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysUnder(store: ArtifactStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of store.list(prefix)) keys.push(o.key);
  return keys.sort();
}

/** Deterministic, varied bytes (so a part sent twice or out of order changes the hash), made as they are read. */
function* generated(total: number, chunk = 256 * 1024): Generator<Buffer> {
  for (let sent = 0, n = 0; sent < total; sent += chunk, n++) {
    const size = Math.min(chunk, total - sent);
    const buf = Buffer.alloc(chunk);
    for (let i = 0; i < chunk; i += 4) buf.writeUInt32LE((Math.imul(n + 1, 2654435761) + i) >>> 0, i);
    yield buf.subarray(0, size);
  }
}

/** A body that sends `before` bytes and then fails, as a client's upload cut off midway does. */
const failingBody = (before: number) =>
  Readable.from(
    (function* () {
      yield* generated(before);
      throw new Error('the client went away');
    })(),
  );

const stores: Array<[string, () => Promise<ArtifactStore>]> = [
  ['data directory', async () => new DataDirStore(await freshDir('data-dir'))],
  // Each store of its own prefix, so the cases cannot see each other's objects in the one bucket.
  ['S3 (s3rver)', async () => s3Store({ S3_PREFIX: `case-${++dirs}` })],
];

describe.each(stores)('artifact store contract: %s', (_name, open) => {
  it('stores a stream and gives the same bytes back, with its size', async () => {
    const store = await open();
    const written = await store.put('runs/c1/r1/report.json', Readable.from([Buffer.from('{"ok":'), Buffer.from('true}')]));
    expect(written).toBe(11);
    const got = await store.get('runs/c1/r1/report.json');
    expect(got?.size).toBe(11);
    expect((await bytesOf(got!.body)).toString()).toBe('{"ok":true}');
    expect(await store.stat('runs/c1/r1/report.json')).toMatchObject({ key: 'runs/c1/r1/report.json', size: 11 });

    await store.put('runs/c1/r1/report.json', Readable.from([Buffer.from('replaced')]));
    expect((await bytesOf((await store.get('runs/c1/r1/report.json'))!.body)).toString()).toBe('replaced');
  });

  it('serves byte ranges, the end inclusive and clamped to the object', async () => {
    const store = await open();
    await store.put('runs/c1/r1/log.txt', Readable.from([Buffer.from('0123456789')]));
    const middle = await store.get('runs/c1/r1/log.txt', { start: 2, end: 5 });
    expect(middle?.range).toEqual({ start: 2, end: 5 });
    expect(middle?.size).toBe(10);
    expect((await bytesOf(middle!.body)).toString()).toBe('2345');
    const tail = await store.get('runs/c1/r1/log.txt', { start: 7 });
    expect(tail?.range).toEqual({ start: 7, end: 9 });
    expect((await bytesOf(tail!.body)).toString()).toBe('789');
    const over = await store.get('runs/c1/r1/log.txt', { start: 8, end: 100 });
    expect(over?.range).toEqual({ start: 8, end: 9 });
    expect((await bytesOf(over!.body)).toString()).toBe('89');
  });

  it('answers a missing key with null (get, stat) and false (download)', async () => {
    const store = await open();
    expect(await store.get('runs/c1/none.txt')).toBeNull();
    expect(await store.get('runs/c1/none.txt', { start: 0, end: 3 })).toBeNull();
    expect(await store.stat('runs/c1/none.txt')).toBeNull();
    const file = path.join(await freshDir('download'), 'none.txt');
    expect(await store.download('runs/c1/none.txt', file)).toBe(false);
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
    await store.delete('runs/c1/none.txt'); // deleting nothing is fine
  });

  it('lists every object under a folder, across pages, and nothing beyond it', async () => {
    const store = await open();
    for (const key of ['runs/a/1.txt', 'runs/a/2.txt', 'runs/a/sub/3.txt', 'runs/a/sub/deeper/4.txt', 'runs/ab/5.txt', 'runs/b.txt']) {
      await store.put(key, Readable.from([Buffer.from(key)]));
    }
    const listed: Array<{ key: string; size: number }> = [];
    for await (const o of store.list('runs/a')) listed.push({ key: o.key, size: o.size });
    expect(listed.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: 'runs/a/1.txt', size: 12 },
      { key: 'runs/a/2.txt', size: 12 },
      { key: 'runs/a/sub/3.txt', size: 16 },
      { key: 'runs/a/sub/deeper/4.txt', size: 23 },
    ]);
    expect(await keysUnder(store, 'runs/a/')).toHaveLength(4);
    expect(await keysUnder(store, 'runs/nothing')).toEqual([]);
  });

  it('deletes one object, and a whole folder (counting what went) without touching its neighbours', async () => {
    const store = await open();
    for (const key of ['runs/x/1', 'runs/x/2', 'runs/x/a/3', 'runs/x/a/4', 'runs/x/a/b/5', 'runs/xy/6']) {
      await store.put(key, Readable.from([Buffer.from('data')]));
    }
    await store.delete('runs/x/1');
    expect(await store.stat('runs/x/1')).toBeNull();
    expect(await store.deletePrefix('runs/x')).toBe(4);
    expect(await keysUnder(store, 'runs/x')).toEqual([]);
    expect(await keysUnder(store, 'runs/xy')).toEqual(['runs/xy/6']);
    expect(await store.deletePrefix('runs/x')).toBe(0);
  });

  it('stores a local folder, and copies an object to a local file', async () => {
    const store = await open();
    const dir = await freshDir('run');
    await mkdir(path.join(dir, 'attempt-1', 'test-results'), { recursive: true });
    await writeFile(path.join(dir, 'report.html'), '<html></html>');
    await writeFile(path.join(dir, 'attempt-1', 'log.txt'), 'log line\n');
    await writeFile(path.join(dir, 'attempt-1', 'test-results', 'shot.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(await store.putDir('runs/c1/r9/', dir)).toBe(3);
    expect(await keysUnder(store, 'runs/c1/r9')).toEqual([
      'runs/c1/r9/attempt-1/log.txt',
      'runs/c1/r9/attempt-1/test-results/shot.png',
      'runs/c1/r9/report.html',
    ]);

    const out = await freshDir('out');
    const file = path.join(out, 'nested', 'shot.png');
    expect(await store.download('runs/c1/r9/attempt-1/test-results/shot.png', file)).toBe(true);
    expect(await readFile(file)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(await readdir(path.join(out, 'nested'))).toEqual(['shot.png']);

    const local = path.join(dir, 'copied.html');
    expect(await store.putFile('uploads/c1/report.html', path.join(dir, 'report.html'))).toBe(13);
    expect(await store.download('uploads/c1/report.html', local)).toBe(true);
    expect(await readFile(local, 'utf8')).toBe('<html></html>');
  });

  it('leaves no object and no partial file when the body fails midway (one part, and several)', async () => {
    const store = await open();
    for (const [key, before] of [['uploads/c1/small.apk', 100_000], ['uploads/c1/big.apk', 3 * PART + 12_345]] as const) {
      await expect(store.put(key, failingBody(before))).rejects.toThrow('the client went away');
      expect(await store.stat(key)).toBeNull();
      expect(await store.get(key)).toBeNull();
    }
    // Nothing is listed, and on disk not even a temporary file remains.
    expect(await keysUnder(store, 'uploads/c1')).toEqual([]);
    const local = store.localPath('uploads/c1/small.apk');
    if (local) expect(await readdir(path.dirname(local))).toEqual([]);

    // A failed write does not disturb what was already stored under the key.
    await store.put('uploads/c1/app.apk', Readable.from([Buffer.from('version 1')]));
    await expect(store.put('uploads/c1/app.apk', failingBody(2 * PART))).rejects.toThrow('the client went away');
    expect((await bytesOf((await store.get('uploads/c1/app.apk'))!.body)).toString()).toBe('version 1');
  });

  it('refuses a key that could leave its folder, and keeps a file name a runner chose', async () => {
    const store = await open();
    // Runners name files after tests: spaces and brackets are names, not escapes.
    await store.put('runs/c1/shot (1) ok.png', Readable.from([Buffer.from('x')]));
    expect((await store.stat('runs/c1/shot (1) ok.png'))?.size).toBe(1);
    for (const key of ['../etc/passwd', 'runs/../../x', 'runs/c1/./x', 'runs/c\\1/x', 'runs/c\n1/x', '']) {
      await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(BadArtifactKeyError);
      await expect(store.get(key)).rejects.toThrow(BadArtifactKeyError);
    }
    await expect(keysUnder(store, '../')).rejects.toThrow(BadArtifactKeyError);
    await expect(store.deletePrefix('runs/..')).rejects.toThrow(BadArtifactKeyError);
  });

  it('round-trips a 40 MB stream byte for byte (many multipart parts)', async () => {
    const store = await open();
    const total = 40 * MIB + 777;
    const sent = createHash('sha256');
    const body = Readable.from(
      (function* () {
        for (const chunk of generated(total)) {
          sent.update(chunk);
          yield chunk;
        }
      })(),
    );
    expect(await store.put('uploads/c1/big.bin', body)).toBe(total);
    expect((await store.stat('uploads/c1/big.bin'))?.size).toBe(total);
    const got = await store.get('uploads/c1/big.bin');
    const received = createHash('sha256');
    let size = 0;
    for await (const chunk of got!.body) {
      received.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    expect(size).toBe(total);
    expect(received.digest('hex')).toBe(sent.digest('hex'));
    // A range across a part boundary.
    const cut = await store.get('uploads/c1/big.bin', { start: PART - 3, end: PART + 4 });
    const expected = Buffer.concat([...generated(PART + 5)]).subarray(PART - 3, PART + 5);
    expect(await bytesOf(cut!.body)).toEqual(expected);
  });
});

describe('S3 store', () => {
  it('keeps two installations apart in one bucket with S3_PREFIX', async () => {
    const one = s3Store({ S3_PREFIX: 'install-one/' });
    const two = s3Store({ S3_PREFIX: 'install-two' });
    await one.put('runs/c1/r1/report.json', Readable.from([Buffer.from('one')]));
    await two.put('runs/c1/r1/report.json', Readable.from([Buffer.from('two')]));
    expect((await bytesOf((await one.get('runs/c1/r1/report.json'))!.body)).toString()).toBe('one');
    expect((await bytesOf((await two.get('runs/c1/r1/report.json'))!.body)).toString()).toBe('two');
    // Keys come back relative to the store, without the prefix.
    expect(await keysUnder(one, 'runs')).toEqual(['runs/c1/r1/report.json']);
    expect(await one.deletePrefix('runs')).toBe(1);
    expect(await one.stat('runs/c1/r1/report.json')).toBeNull();
    expect(await keysUnder(two, 'runs')).toEqual(['runs/c1/r1/report.json']);
    // Without a prefix the bucket's root holds the other installations' folders, never mixed into a list.
    expect(await keysUnder(s3Store(), 'runs')).toEqual([]);
  });

  it('refuses a body that is not the size announced, and stores nothing', async () => {
    const store = s3Store({ S3_PREFIX: 'sizes' });
    await expect(store.put('uploads/c1/a.bin', Readable.from([Buffer.from('12345')]), { size: 10 })).rejects.toThrow(/ended after 5 of the 10 bytes/);
    await expect(store.put('uploads/c1/a.bin', Readable.from([Buffer.from('12345')]), { size: 3 })).rejects.toThrow(/longer than the 3 bytes/);
    expect(await store.stat('uploads/c1/a.bin')).toBeNull();
  });

  it('passes its start-up check on a reachable bucket', async () => {
    await expect(s3Store().check()).resolves.toBeUndefined();
  });

  it('says which setting is wrong when the bucket is missing', async () => {
    const err = await s3Store({ S3_BUCKET: 'no-such-bucket' }).check().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(`S3_BUCKET: bucket "no-such-bucket" at ${s3.endpoint} does not exist (create it, or fix the name)`);
  });

  it('says which settings are wrong when the credentials are refused, without echoing the secret', async () => {
    const err = await s3Store({ S3_ACCESS_KEY_ID: 'nobody', S3_SECRET_ACCESS_KEY: 'very-secret-value' }).check().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/^S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: .* refused the credentials/);
    expect((err as Error).message).not.toContain('very-secret-value');
  });

  it('says the endpoint is unreachable when nothing listens there', async () => {
    const port = await closedPort();
    const err = await s3Store({ S3_ENDPOINT: `http://127.0.0.1:${port}` }).check().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(`S3_ENDPOINT: cannot reach http://127.0.0.1:${port} (ECONNREFUSED)`);
  });

  it('gives up within its timeout on an endpoint that never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      socket.on('error', () => {});
      sockets.push(socket);
    });
    silent.on('error', () => {});
    const port = await listen(silent);
    try {
      const started = Date.now();
      const err = await s3Store({ S3_ENDPOINT: `http://127.0.0.1:${port}` }, { checkTimeoutMs: 500 }).check().catch((e: unknown) => e);
      expect((err as Error).message).toBe(`S3_ENDPOINT: http://127.0.0.1:${port} did not answer within 0.5 s (is the S3 server running and reachable?)`);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

async function closedPort(): Promise<number> {
  const server = createServer();
  server.on('error', () => {});
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
