import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppInfo, UploadPlatform } from '@fullstop/contracts';
import { type ArchiveLimits, formatBytes } from '@fullstop/engine';
import { type ArtifactStore, moveIn } from '../../lib/artifact-store/index.ts';
import type { Paths } from '../../lib/data-dir.ts';
import { PayloadTooLargeError, ValidationError } from '../../lib/errors.ts';
import { readAppInfo } from './app-info.ts';
import { checkBuild } from './archive-check.ts';
import { uploadedAppKey } from './storage.ts';

export interface BuildUpload {
  paths: Paths;
  store: ArtifactStore;
  clientId: string;
  platform: UploadPlatform;
  /** The multipart file stream; `truncated` once it went past `maxBytes`. */
  file: NodeJS.ReadableStream & { truncated: boolean };
  maxBytes: number;
  limits: ArchiveLimits;
  /** Called before a build the check refused is answered (for the audit log). */
  onRejected(reason: 'inflated-size' | 'type', size: number): Promise<void>;
}

/**
 * Streams a build to a scratch file, checks it for what it really is (and for what it would inflate to), then
 * hands it to the artifact store over the current one. A rejected, too large or interrupted upload
 * leaves the previous build in place. Answers with the app's name, version and id as the build states them.
 */
export async function storeBuild(upload: BuildUpload): Promise<{ size: number; sha256: string; app: AppInfo }> {
  const { paths, clientId, platform, file } = upload;
  const incoming = path.join(paths.incoming, `build-${randomUUID()}`);
  const hash = createHash('sha256');
  let size = 0;
  let app: AppInfo;
  const measure = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(file, measure, createWriteStream(incoming, { mode: 0o600 }));
    if (file.truncated) throw Object.assign(new Error('truncated'), { code: 'FST_REQ_FILE_TOO_LARGE' });
    if (size === 0) throw new ValidationError('file is empty', 'file');
    try {
      app = readAppInfo(platform, (await checkBuild(platform, incoming, upload.limits)).files);
    } catch (err) {
      await upload.onRejected(err instanceof PayloadTooLargeError ? 'inflated-size' : 'type', size);
      throw err;
    }
    await moveIn(upload.store, uploadedAppKey(clientId, platform), incoming);
  } catch (err) {
    await rm(incoming, { force: true });
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new PayloadTooLargeError(`The file is too large: the limit is ${formatBytes(upload.maxBytes)}`);
    }
    throw err;
  }
  return { size, sha256: hash.digest('hex'), app };
}
