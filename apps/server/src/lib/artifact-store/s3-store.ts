import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ConfigError } from '../../config/env.ts';
import {
  type ArtifactStore,
  assertArtifactKey,
  type ByteRange,
  type ListedObject,
  type PutOptions,
  type StoredBody,
  type StoredObject,
} from './artifact-store.ts';
import { listFiles } from './data-dir-store.ts';
import type { S3Config } from './index.ts';

export interface S3StoreOptions {
  /** Multipart part size in bytes (S3's minimum: 5 MiB). An upload holds about partSize × (queueSize + 1) in memory. */
  partSize?: number;
  /** Parts of one upload sent at once. */
  queueSize?: number;
  /** Keys per ListObjectsV2 page (S3's maximum: 1000); tests use a small one to cross pages. */
  listPageSize?: number;
  /** How long check() waits for the bucket to answer, so a dead endpoint cannot hang start-up. */
  checkTimeoutMs?: number;
}

const MIB = 1024 * 1024;
const DEFAULTS: Required<S3StoreOptions> = { partSize: 8 * MIB, queueSize: 2, listPageSize: 1000, checkTimeoutMs: 5_000 };
/** Files of one putDir sent at once (each a small upload of its own). */
const PUT_DIR_CONCURRENCY = 4;

interface SdkError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}
const sdkError = (err: unknown): SdkError => (typeof err === 'object' && err !== null ? (err as SdkError) : {});
const statusOf = (err: unknown) => sdkError(err).$metadata?.httpStatusCode;
/** A missing object (GetObject says NoSuchKey; HeadObject, having no body, only 404). A missing bucket is not. */
const isMissingObject = (err: unknown) => {
  const { name } = sdkError(err);
  return name === 'NoSuchKey' || (name === 'NotFound' && statusOf(err) === 404);
};
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

/**
 * S3-compatible object storage (AWS, MinIO, Ceph, R2 ...) through @aws-sdk/client-s3. Every key is stored as
 * `S3_PREFIX + key`. Uploads are multipart with a bounded part size and queue, so memory stays the same for a
 * 1 kB log and a 2 GB build; downloads stream. An upload whose body fails midway is aborted and never completed,
 * so no object (and no half of one) is left under the key. Servers that cannot abort a multipart upload keep
 * its parts until a lifecycle rule (AbortIncompleteMultipartUpload) removes them; none of them is readable.
 */
export class S3Store implements ArtifactStore {
  readonly kind = 's3';
  readonly bucket: string;
  readonly prefix: string;
  private readonly region: string;
  private readonly client: S3Client;
  private readonly options: Required<S3StoreOptions>;
  /** Where the bucket lives, for messages: the endpoint without any user:password in it. */
  private readonly where: string;

  // The secret goes into the client and nowhere else: the store keeps no copy a log line could print.
  constructor(config: S3Config, options: S3StoreOptions = {}) {
    this.bucket = config.bucket;
    this.prefix = config.prefix;
    this.region = config.region;
    this.options = { ...DEFAULTS, ...options };
    this.where = config.endpoint ? new URL(config.endpoint).origin : `AWS S3 (${config.region})`;
    const agent = { keepAlive: true, maxSockets: 64 };
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      // Neither set: the AWS chain (environment, profile, instance role), as env.ts documents.
      ...(config.accessKeyId && config.secretAccessKey
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
        : {}),
      maxAttempts: 3,
      // The SDK's default trailing CRC32 checksums (aws-chunked bodies) are not understood by many S3-compatible
      // servers; checksums are sent where the API requires them (DeleteObjects) and nowhere else.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: {
        connectionTimeout: 5_000,
        // Until the response's headers (a part of `partSize` has to go up within it).
        requestTimeout: 60_000,
        throwOnRequestTimeout: true,
        // A socket silent this long is dead; it also ends a download whose reader stopped reading for as long.
        socketTimeout: 120_000,
        httpAgent: new HttpAgent(agent),
        httpsAgent: new HttpsAgent(agent),
      },
    });
  }

  localPath(): null {
    return null;
  }

  private objectKey(key: string): string {
    return this.prefix + assertArtifactKey(key);
  }

  /** The folder a prefix names, as an S3 prefix ending with `/` (so `runs/a` never lists `runs/ab/...`). */
  private folderKey(prefix: string): string {
    return `${this.prefix}${assertArtifactKey(prefix).replace(/\/$/, '')}/`;
  }

  async put(key: string, body: Readable, opts: PutOptions = {}): Promise<number> {
    const objectKey = this.objectKey(key);
    let bodyError: unknown;
    // From birth: an error before the upload starts reading must not go unheard (the upload then fails with it).
    body.on('error', (err) => (bodyError ??= err));
    let bytes = 0;
    const expected = opts.size;
    // Counts the bytes, and refuses a body that is not the announced size before the upload can complete.
    async function* counted(): AsyncGenerator<Buffer> {
      for await (const chunk of body) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        bytes += buf.length;
        // Noted before throwing: leaving the loop destroys the body, whose AbortError must not be the reason given.
        if (expected !== undefined && bytes > expected) throw (bodyError ??= new Error(`the body is longer than the ${expected} bytes announced`));
        yield buf;
      }
      if (expected !== undefined && bytes !== expected) throw (bodyError ??= new Error(`the body ended after ${bytes} of the ${expected} bytes announced`));
    }
    const source = Readable.from(counted());
    source.on('error', (err) => (bodyError ??= err));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: objectKey, Body: source, ...(opts.contentType ? { ContentType: opts.contentType } : {}) },
      partSize: this.options.partSize,
      queueSize: this.options.queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
      return bytes;
    } catch (err) {
      // Release whatever feeds the body (a file, a request) when S3 gave up first.
      body.destroy();
      source.destroy();
      // The body's own failure says more than the abort that followed it (which some servers refuse).
      throw bodyError ?? err;
    }
  }

  async putFile(key: string, file: string, opts: PutOptions = {}): Promise<number> {
    const { size } = await stat(file);
    const body = createReadStream(file);
    return this.put(key, body, { ...opts, size });
  }

  async putDir(prefix: string, dir: string): Promise<number> {
    const folder = assertArtifactKey(prefix).replace(/\/$/, '');
    const files = await listFiles(dir);
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const rel = files[next++]!;
        await this.putFile(`${folder}/${rel}`, path.join(dir, ...rel.split('/')));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PUT_DIR_CONCURRENCY, files.length) }, worker));
    return files.length;
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return {
        key,
        size: head.ContentLength ?? 0,
        ...(head.ContentType ? { contentType: head.ContentType } : {}),
        ...(head.LastModified ? { lastModified: head.LastModified } : {}),
      };
    } catch (err) {
      if (isMissingObject(err)) return null;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredBody | null> {
    const objectKey = this.objectKey(key);
    let res: GetObjectCommandOutput;
    try {
      res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
      );
    } catch (err) {
      if (isMissingObject(err)) return null;
      // A range starting past the end: no bytes, as a file read there gives (the data-dir store's answer).
      if (range && statusOf(err) === 416) return this.emptyRange(key, range);
      throw err;
    }
    const body = res.Body as Readable;
    // The reader (pipeline, reply.send) hears errors itself; this keeps an abandoned body from crashing the process.
    body.on('error', () => {});
    const found: StoredObject = {
      key,
      size: res.ContentLength ?? 0,
      ...(res.ContentType ? { contentType: res.ContentType } : {}),
      ...(res.LastModified ? { lastModified: res.LastModified } : {}),
    };
    if (!range) return { ...found, body };
    const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(res.ContentRange ?? '');
    if (!m) {
      // A server that ignored the Range header sent the whole object: not what the caller asked for.
      body.destroy();
      throw new Error(`the S3 server answered a range request for ${objectKey} without a Content-Range`);
    }
    const total = m[3] === '*' ? undefined : Number(m[3]);
    return { ...found, size: total ?? found.size, body, range: { start: Number(m[1]), end: Number(m[2]) } };
  }

  private async emptyRange(key: string, range: ByteRange): Promise<StoredBody | null> {
    const found = await this.stat(key);
    if (!found) return null;
    const end = Math.min(range.end ?? found.size - 1, found.size - 1);
    return { ...found, body: Readable.from([]), range: { start: range.start, end } };
  }

  async download(key: string, file: string): Promise<boolean> {
    const got = await this.get(key);
    if (!got) return false;
    // A temporary name renamed into place: a reader never sees half a file, a failed copy leaves none.
    const part = `${file}.part-${randomBytes(6).toString('hex')}`;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      const out = createWriteStream(part, { mode: 0o600 });
      await pipeline(got.body, out);
      await rename(part, file);
      return true;
    } catch (err) {
      got.body.destroy();
      await rm(part, { force: true });
      throw err;
    }
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    for await (const page of this.pages(this.folderKey(prefix))) {
      for (const object of page) yield object;
    }
  }

  /** ListObjectsV2 page by page (continuation tokens), keys made relative to the store. */
  private async *pages(s3Prefix: string): AsyncGenerator<ListedObject[]> {
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: s3Prefix, MaxKeys: this.options.listPageSize, ContinuationToken: token }),
      );
      const objects = (res.Contents ?? [])
        .filter((o): o is typeof o & { Key: string } => typeof o.Key === 'string' && o.Key.startsWith(this.prefix))
        .map((o) => ({ key: o.Key.slice(this.prefix.length), size: o.Size ?? 0 }));
      if (objects.length > 0) yield objects;
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  }

  async delete(key: string): Promise<void> {
    // S3 answers a missing key with success, as `rm --force` does.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    let count = 0;
    // Each page is deleted before the next is asked for; the continuation token still points past it.
    for await (const page of this.pages(this.folderKey(prefix))) {
      count += await this.deleteBatch(page.map((o) => this.prefix + o.key));
    }
    return count;
  }

  /** Up to 1000 keys in one DeleteObjects request; one by one on a server that does not have it. */
  private async deleteBatch(objectKeys: string[]): Promise<number> {
    try {
      const res = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objectKeys.map((Key) => ({ Key })), Quiet: true } }),
      );
      const failed = res.Errors ?? [];
      if (failed.length > 0) {
        const first = failed[0]!;
        throw new Error(`S3 refused to delete ${failed.length} of ${objectKeys.length} objects (${first.Key}: ${first.Code} ${first.Message ?? ''})`.trim());
      }
      return objectKeys.length;
    } catch (err) {
      if (sdkError(err).name !== 'NotImplemented') throw err;
      for (const Key of objectKeys) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
      return objectKeys.length;
    }
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
        abortSignal: AbortSignal.timeout(this.options.checkTimeoutMs),
      });
    } catch (err) {
      throw new ConfigError(this.checkMessage(err), { cause: err });
    }
  }

  /** One sentence naming the setting to fix (never a credential's value). */
  private checkMessage(err: unknown): string {
    const { name, code } = sdkError(err);
    const status = statusOf(err);
    const bucket = `bucket "${this.bucket}" at ${this.where}`;
    if (name === 'AbortError' || name === 'TimeoutError') {
      return `S3_ENDPOINT: ${this.where} did not answer within ${this.options.checkTimeoutMs / 1000} s (is the S3 server running and reachable?)`;
    }
    if ((code && NETWORK_CODES.has(code)) || (status === undefined && name !== 'CredentialsProviderError' && /ECONN|ENOTFOUND|EAI_AGAIN|socket/i.test(String((err as Error).message)))) {
      return `S3_ENDPOINT: cannot reach ${this.where} (${code ?? name ?? 'network error'})`;
    }
    if (name === 'CredentialsProviderError') {
      return 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are not set and no AWS credentials were found (environment, profile or instance role)';
    }
    if (status === 404 || name === 'NoSuchBucket' || name === 'NotFound') {
      return `S3_BUCKET: ${bucket} does not exist (create it, or fix the name)`;
    }
    if (status === 403 || status === 401 || name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch' || name === 'AccessDenied') {
      return `S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: ${this.where} refused the credentials for bucket "${this.bucket}" (${status ?? name})`;
    }
    if (status === 301 || name === 'PermanentRedirect') {
      return `S3_REGION: ${bucket} lives in another region than "${this.region}" (set S3_REGION to the bucket's region)`;
    }
    return `S3 check failed for ${bucket}: ${name ?? 'error'}${status ? ` (HTTP ${status})` : ''}`;
  }
}
