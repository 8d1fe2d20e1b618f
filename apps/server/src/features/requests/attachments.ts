import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { REQUEST_ATTACHMENT_MAX_BYTES, type REQUEST_ATTACHMENT_TYPES, REQUEST_ATTACHMENT_TYPES_TEXT, guessType, requestAttachmentType } from '@fullstop/contracts';
import { type ArtifactStore, artifactKey, moveIn } from '../../lib/artifact-store/index.ts';
import type { Paths } from '../../lib/data-dir.ts';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../../lib/errors.ts';

type AttachmentType = (typeof REQUEST_ATTACHMENT_TYPES)[number];

/** DATA_DIR/requests/<request id>: a request's files, each named by its attachment id. */
export function requestKey(requestId: string): string {
  return artifactKey('requests', requestId);
}
export function attachmentKey(requestId: string, attachmentId: string): string {
  return artifactKey('requests', requestId, attachmentId);
}

export const TOO_LARGE_MESSAGE = `The file is too large: the limit is ${Math.round(REQUEST_ATTACHMENT_MAX_BYTES / (1024 * 1024))} MB`;
export const WRONG_TYPE_MESSAGE = `This kind of file cannot be attached: send one of ${REQUEST_ATTACHMENT_TYPES_TEXT}`;

const HEAD_BYTES = 8192;

const startsWith = (head: Buffer, bytes: number[] | string, at = 0) => {
  const want = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return head.length >= at + want.length && head.subarray(at, at + want.length).equals(want);
};

/** Signatures of binary formats a text file never starts with. */
function looksBinary(head: Buffer): boolean {
  return head.includes(0) || startsWith(head, [0x89, 0x50, 0x4e, 0x47]) || startsWith(head, 'PK\x03\x04') || startsWith(head, [0x7f, 0x45, 0x4c, 0x46]) || startsWith(head, 'MZ');
}

/** Whether the file's first bytes are what its declared type says it is. */
export function contentMatches(type: AttachmentType, head: Buffer): boolean {
  switch (type) {
    case 'image/png':
      return startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return startsWith(head, [0xff, 0xd8, 0xff]);
    case 'image/gif':
      return startsWith(head, 'GIF87a') || startsWith(head, 'GIF89a');
    case 'image/webp':
      return startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8);
    case 'video/mp4':
      return startsWith(head, 'ftyp', 4);
    case 'video/quicktime':
      return ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip'].some((box) => startsWith(head, box, 4));
    case 'video/webm':
      return startsWith(head, [0x1a, 0x45, 0xdf, 0xa3]);
    case 'application/pdf':
      return startsWith(head, '%PDF-');
    case 'application/zip':
      return startsWith(head, 'PK\x03\x04') || startsWith(head, 'PK\x05\x06');
    case 'text/plain':
    case 'text/csv':
      return !looksBinary(head);
  }
}

/** A file name safe to store and to show: no folders, no control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const base = (name ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (base || 'file').slice(0, 200);
}

export interface IncomingAttachment {
  paths: Paths;
  store: ArtifactStore;
  requestId: string;
  fileName: string | undefined;
  declaredType: string;
  /** The multipart file stream; `truncated` once it went past the limit. */
  file: NodeJS.ReadableStream & { truncated: boolean };
}

export interface StoredAttachment {
  id: string;
  name: string;
  contentType: AttachmentType;
  size: number;
  /** Where the complete, checked file now is in the store; delete it if its row cannot be written. */
  key: string;
}

/**
 * Streams an attachment to a temporary file in the request's folder, checks its size and that its first bytes
 * are what its declared type says, and only then gives it its final name. A refused or interrupted upload
 * leaves nothing behind.
 */
export async function storeAttachment(upload: IncomingAttachment): Promise<StoredAttachment> {
  const name = cleanFileName(upload.fileName);
  const declared = upload.declaredType && upload.declaredType !== 'application/octet-stream' ? upload.declaredType : guessType(name);
  const type = requestAttachmentType(declared);
  if (!type) {
    upload.file.resume();
    throw new UnsupportedMediaTypeError(WRONG_TYPE_MESSAGE);
  }
  const id = randomUUID();
  const incoming = path.join(upload.paths.incoming, `request-${id}`);
  let size = 0;
  const heads: Buffer[] = [];
  let headLength = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (headLength < HEAD_BYTES) {
        heads.push(chunk.subarray(0, HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(upload.file, measure, createWriteStream(incoming, { mode: 0o600 }));
    if (upload.file.truncated) throw new PayloadTooLargeError(TOO_LARGE_MESSAGE);
    if (size === 0) throw new ValidationError('file is empty', 'file');
    if (!contentMatches(type, Buffer.concat(heads))) {
      throw new UnsupportedMediaTypeError(`The file's contents are not ${type}: send one of ${REQUEST_ATTACHMENT_TYPES_TEXT}`);
    }
    const key = attachmentKey(upload.requestId, id);
    await moveIn(upload.store, key, incoming);
    return { id, name, contentType: type, size, key };
  } catch (err) {
    await rm(incoming, { force: true });
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLargeError(TOO_LARGE_MESSAGE);
    throw err;
  }
}
