import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BUG_ATTACHMENT_MAX_BYTES, BUG_ATTACHMENT_TYPES } from '@fullstop/contracts';
import { type ArtifactStore, artifactKey, moveIn } from '../../lib/artifact-store/index.ts';
import type { Paths } from '../../lib/data-dir.ts';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../../lib/errors.ts';

export type AttachmentType = (typeof BUG_ATTACHMENT_TYPES)[number];

const TYPE_NAMES = 'PNG, JPEG, GIF or WebP images, MP4, WebM or MOV videos';
const LIMIT_TEXT = `${BUG_ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB`;

/** Whether the file's first bytes are those of `type`: the declared type alone is the sender's word. */
export function magicMatches(type: AttachmentType, head: Buffer): boolean {
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  switch (type) {
    case 'image/png':
      return head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'image/jpeg':
      return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
    case 'image/gif':
      return ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a';
    case 'image/webp':
      return ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP';
    case 'video/mp4':
      return ascii(4, 8) === 'ftyp';
    case 'video/webm':
      return head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    case 'video/quicktime':
      // An iPhone's screen recordings and videos from Photos: a QuickTime file starts with one of these boxes.
      return ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip'].includes(ascii(4, 8));
  }
}

export function isAttachmentType(type: string): type is AttachmentType {
  return (BUG_ATTACHMENT_TYPES as readonly string[]).includes(type);
}

export function wrongType(): UnsupportedMediaTypeError {
  return new UnsupportedMediaTypeError(`This file type is not accepted: attach ${TYPE_NAMES} (${BUG_ATTACHMENT_TYPES.join(', ')})`);
}

export function tooLarge(): PayloadTooLargeError {
  return new PayloadTooLargeError(`The file is too large: an attachment may be at most ${LIMIT_TEXT}`);
}

/** A bug's folder in the artifact store, `bugs/<bug>` (bug ids are server-made UUIDs; the check keeps a bad one inside). */
export function bugKey(bugId: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(bugId)) throw new Error(`unexpected bug id ${JSON.stringify(bugId)}`);
  return artifactKey('bugs', bugId);
}

/** The file's own name, cleaned, for the download's name and the stored file's suffix. */
export function cleanName(name: string | undefined, fallback: string): string {
  const base = path.basename((name ?? '').replace(/\\/g, '/'));
  return base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(-120) || fallback;
}

export interface StoredFile {
  /** Its key in the artifact store (`bugs/<bug>/<file>`), kept as the attachment's path. */
  relPath: string;
  size: number;
}

/**
 * Streams an uploaded file to a scratch file, checks its size (while streaming) and its first bytes against the
 * declared type, then hands it to the artifact store. On any failure the scratch file is removed: nothing
 * half-written stays.
 */
export async function storeUpload(
  paths: Paths,
  store: ArtifactStore,
  /** The folder in the store it goes to: a bug's (`bugKey`), a manual case's step. */
  folder: string,
  upload: { file: NodeJS.ReadableStream & { truncated?: boolean }; filename: string | undefined; type: AttachmentType; maxBytes?: number },
): Promise<StoredFile> {
  const maxBytes = upload.maxBytes ?? BUG_ATTACHMENT_MAX_BYTES;
  const incoming = path.join(paths.incoming, `upload-${randomUUID()}`);
  let size = 0;
  const heads: Buffer[] = [];
  let headBytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(Object.assign(new Error('too large'), { code: 'FST_REQ_FILE_TOO_LARGE' }));
      if (headBytes < 16) {
        heads.push(chunk);
        headBytes += chunk.length;
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(upload.file, measure, createWriteStream(incoming, { mode: 0o600 }));
    if (upload.file.truncated) throw Object.assign(new Error('truncated'), { code: 'FST_REQ_FILE_TOO_LARGE' });
    if (size === 0) throw new ValidationError('file is empty', 'file');
    if (!magicMatches(upload.type, Buffer.concat(heads))) throw wrongType();
    const key = `${folder}/${randomUUID()}-${cleanName(upload.filename, 'attachment')}`;
    await moveIn(store, key, incoming);
    return { relPath: key, size };
  } catch (err) {
    await rm(incoming, { force: true });
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw err;
  }
}

/** Copies a run's evidence (a stored object) or given content into the bug's folder in the store. */
export async function storeCopy(store: ArtifactStore, bugId: string, name: string, from: { key: string } | { content: string }): Promise<StoredFile> {
  const key = `${bugKey(bugId)}/${randomUUID()}-${cleanName(name, 'evidence')}`;
  let body: Readable;
  if ('key' in from) {
    const source = await store.get(from.key);
    if (!source) throw new Error(`the evidence ${from.key} is no longer stored`);
    body = source.body;
  } else {
    body = Readable.from([Buffer.from(from.content)]);
  }
  const size = await store.put(key, body);
  return { relPath: key, size };
}

/** The kind an uploaded file is listed as. */
export const uploadKind = (type: AttachmentType) => (type.startsWith('video/') ? 'video' : 'image');
