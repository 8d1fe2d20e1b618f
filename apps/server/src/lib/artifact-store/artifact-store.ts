import type { Readable } from 'node:stream';

/**
 * Where artifacts live: run folders (reports, traces, screenshots, logs), uploaded builds, bug and request
 * attachments. Two implementations: the data directory (the embedded default: `DATA_DIR/storage/<key>`) and
 * S3-compatible object storage (`ARTIFACT_STORE=s3`), so a report written by a worker on one machine is served
 * by an API process on another. Bodies stream in and out; nothing is buffered whole in memory.
 *
 * Keys are relative POSIX paths (no `.` or `..` segment, no backslash or control character), laid out
 * as the data directory always was: `runs/<client>/<run>/<runTest>/...`, `uploads/<client>/android.apk`,
 * `bugs/...`, `requests/...`.
 */
export interface ArtifactStore {
  readonly kind: 'data-dir' | 's3';
  /** Stores the stream under the key (replacing what was there); resolves with the bytes written. */
  put(key: string, body: Readable, opts?: PutOptions): Promise<number>;
  /** Stores a local file under the key. */
  putFile(key: string, file: string, opts?: PutOptions): Promise<number>;
  /** Every file under a local folder, as `prefix/<relative path>`; resolves with the number of files. */
  putDir(prefix: string, dir: string): Promise<number>;
  /** The object's bytes (a byte range when asked, `end` inclusive), or null when there is none. */
  get(key: string, range?: ByteRange): Promise<StoredBody | null>;
  stat(key: string): Promise<StoredObject | null>;
  /** Copies the object to a local file (engines that need a path); false when there is none. */
  download(key: string, file: string): Promise<boolean>;
  /** Every object under the prefix (a folder: `runs/<client>/<run>/`), keys relative to the store. */
  list(prefix: string): AsyncIterable<ListedObject>;
  delete(key: string): Promise<void>;
  /** Deletes every object under the prefix; resolves with how many were deleted. */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * The key's path on this machine when the store is the data directory (the engine writes runs in place, and
   * nothing has to be copied); null for a remote store.
   */
  localPath(key: string): string | null;
  /** Start-up check (the bucket exists and the credentials reach it); throws a message naming what is wrong. */
  check(): Promise<void>;
}

export interface PutOptions {
  contentType?: string;
  /** The length when known in advance (lets S3 take it in one request). */
  size?: number;
}

export interface ByteRange {
  start: number;
  /** Inclusive; omitted: to the end. */
  end?: number;
}

export interface StoredObject {
  key: string;
  size: number;
  contentType?: string;
  lastModified?: Date;
}

export type ListedObject = Pick<StoredObject, 'key' | 'size'>;

export interface StoredBody extends StoredObject {
  body: Readable;
  /** Present when a range was asked for: the bytes actually sent, `end` inclusive. */
  range?: { start: number; end: number };
}

/** Any name a file may have (runners name files after tests) but no separator, control character or NUL. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what a key may not hold
const SEGMENT = /^[^/\\\x00-\x1f\x7f]{1,255}$/;

/** Thrown for a key that is not a clean relative path: a bug in the caller, never a client's input. */
export class BadArtifactKeyError extends Error {}

/** Joins segments into a key, refusing anything that could leave its folder. */
export function artifactKey(...segments: string[]): string {
  const parts = segments.flatMap((s) => s.split('/')).filter((s) => s !== '');
  for (const part of parts) {
    if (!SEGMENT.test(part) || part === '.' || part === '..') {
      throw new BadArtifactKeyError(`not a valid artifact key segment: ${JSON.stringify(part)}`);
    }
  }
  if (parts.length === 0) throw new BadArtifactKeyError('an artifact key cannot be empty');
  return parts.join('/');
}

/** The same check for a whole key (or a prefix, which may end with `/`). */
export function assertArtifactKey(key: string): string {
  const clean = artifactKey(key);
  return key.endsWith('/') ? `${clean}/` : clean;
}
