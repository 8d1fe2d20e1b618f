import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { idParam, UPLOAD_SUCCESS_MESSAGE, uploadPlatform, uploadResponse } from '@fullstop/contracts';
import { type ArchiveLimits, formatBytes } from '@fullstop/engine';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clients, uploads } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import { NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { assertClientAccess } from '../auth/guard.ts';
import { checkBuild } from './archive-check.ts';
import { clientUploadDir, displayPath, uploadedAppFile } from './storage.ts';

const uploadParams = idParam.extend({ platform: uploadPlatform });

/**
 * Mobile builds: streamed to a temporary file beside the current build, checked for what they really are (and
 * for what they would inflate to), then renamed over it. A rejected, too large or interrupted upload leaves the
 * previous build in place. The stored file's path never leaves the server: clients see their own file name.
 */
export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const maxBytes = app.env.UPLOAD_MAX_BYTES;
  const archiveLimits: ArchiveLimits = {
    maxEntries: app.env.UPLOAD_MAX_ENTRIES,
    maxInflatedBytes: app.env.UPLOAD_MAX_INFLATED_BYTES,
    maxEntryBytes: app.env.UPLOAD_MAX_MANIFEST_BYTES,
  };
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 20, fieldSize: 64 * 1024 },
    throwFileSizeLimit: true,
  });

  app.post(
    '/upload/:platform/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['uploads'],
        summary: 'Upload the Android APK or iOS IPA build (multipart/form-data, field "file")',
        security: [{ bearer: [] }, { apiKey: [] }],
        consumes: ['multipart/form-data'],
        params: uploadParams,
        response: { 200: uploadResponse, ...errorResponses(400, 401, 404, 413, 415) },
      },
    },
    async (request) => {
      const { platform, id } = request.params;
      assertClientAccess(request.principal, id);
      const [client] = await app.db.select({ id: clients.id }).from(clients).where(eq(clients.id, id)).limit(1);
      if (!client) throw new NotFoundError('Client not found');
      if (!request.isMultipart()) {
        throw new UnsupportedMediaTypeError('Send the build as multipart/form-data in the form field "file"');
      }
      const part = await request.file();
      if (!part) throw new ValidationError('file is required: send the build in the form field "file"', 'file');
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw new ValidationError(`file is required: the build must be in the form field "file", not "${part.fieldname}"`, 'file');
      }

      const dir = clientUploadDir(app.paths, id);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const incoming = path.join(dir, `.incoming-${randomUUID()}`);
      const hash = createHash('sha256');
      let size = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(part.file, measure, createWriteStream(incoming, { mode: 0o600 }));
        if (part.file.truncated) throw Object.assign(new Error('truncated'), { code: 'FST_REQ_FILE_TOO_LARGE' });
        if (size === 0) throw new ValidationError('file is empty', 'file');
        try {
          await checkBuild(platform, incoming, archiveLimits);
        } catch (err) {
          const reason = err instanceof PayloadTooLargeError ? 'inflated-size' : 'type';
          await audit(app.db, request.log, { type: 'upload.rejected', clientId: id, userId: request.principal?.userId, address: request.ip, details: { platform, reason, size } });
          throw err;
        }
        await rename(incoming, uploadedAppFile(app.paths, id, platform));
      } catch (err) {
        await rm(incoming, { force: true });
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new PayloadTooLargeError(`The file is too large: the limit is ${formatBytes(maxBytes)}`);
        }
        throw err;
      }

      const filePath = displayPath(platform, part.filename);
      const uploadTime = new Date();
      await app.db.insert(uploads).values({
        clientId: id,
        platform,
        fileName: filePath,
        sizeBytes: size,
        sha256: hash.digest('hex'),
        uploadedBy: request.principal?.userId ?? null,
      });
      await app.db
        .update(clients)
        .set(platform === 'android' ? { androidAppPath: filePath, androidAppUploaded: uploadTime } : { iosAppPath: filePath, iosAppUploaded: uploadTime })
        .where(eq(clients.id, id));
      app.cache.invalidate(id, 'profile');
      await audit(app.db, request.log, { type: 'upload.accepted', clientId: id, userId: request.principal?.userId, address: request.ip, details: { platform, size } });
      return { message: UPLOAD_SUCCESS_MESSAGE, filePath, uploadTime: uploadTime.toISOString() };
    },
  );
};

