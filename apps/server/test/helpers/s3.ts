import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A running S3-compatible server for one test file (or bench run), with one empty bucket of its own. */
export interface TestS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  /**
   * The settings that point the server at it: ARTIFACT_STORE=s3, S3_ENDPOINT, S3_BUCKET, S3_REGION,
   * S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (s3rver's fixed `S3RVER` pair), S3_FORCE_PATH_STYLE. Spread them
   * into the env given to buildApp / loadEnv; add S3_PREFIX to share the bucket between installations.
   */
  env: Record<string, string>;
  /** Stops the server and deletes its folder (every object in it). */
  close(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url));

/**
 * Starts s3rver (silent) on 127.0.0.1, port 0, in a temporary folder, with a fresh bucket. It runs in a child
 * process of plain Node (see s3rver-process.mjs for why), which ends with this process if close() is never called.
 *
 *   const s3 = await startS3();            // beforeAll
 *   const app = await buildApp({ ...env, ...s3.env });
 *   await s3.close();                      // afterAll
 */
export async function startS3(options: { bucket?: string } = {}): Promise<TestS3> {
  const bucket = options.bucket ?? `test-${randomBytes(4).toString('hex')}`;
  const directory = await mkdtemp(path.join(tmpdir(), 'fullstop-s3rver-'));
  // No env of ours: NODE_OPTIONS (a test runner's loader) must not reach plain Node.
  const child = spawn(process.execPath, ['--openssl-legacy-provider', SCRIPT, JSON.stringify({ directory, bucket })], {
    env: {},
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdin.on('error', () => {}); // the child gone first: nothing left to tell it
  child.stderr.on('error', () => {});
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr = (stderr + s).slice(-4_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening: ${stderr.trim()}`)));
      child.stdout.on('error', reject);
      child.stdout.setEncoding('utf8').on('data', (s: string) => {
        out += s;
        const line = out.split('\n')[0];
        if (out.includes('\n') && line) resolve((JSON.parse(line) as { port: number }).port);
      });
    });
  } catch (err) {
    child.kill();
    await rm(directory, { recursive: true, force: true });
    throw err;
  }
  child.on('error', () => {});

  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      ARTIFACT_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
