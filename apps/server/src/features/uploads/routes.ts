import multipart, { type MultipartFile } from '@fastify/multipart';
import { idParam, messageResponse, UPLOAD_SUCCESS_MESSAGE, uploadPlatform, uploadResponse } from '@fullstop/contracts';
import type { ArchiveLimits } from '@fullstop/engine';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { audit } from '../../lib/audit.ts';
import { NotFoundError, UnsupportedMediaTypeError, ValidationError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { getClient } from '../accounts/index.ts';
import { assertClientAccess } from '../auth/index.ts';
import { deleteCurrentBuild, recordUpload } from './repository.ts';
import { displayPath, fileNameOf, uploadedAppKey } from './storage.ts';
import { storeBuild } from './store-build.ts';

const uploadParams = idParam.extend({ platform: uploadPlatform });

/** The build: the multipart form field "file", and nothing else will do. */
async function buildPart(request: FastifyRequest): Promise<MultipartFile> {
  if (!request.isMultipart()) {
    throw new UnsupportedMediaTypeError('Send the build as multipart/form-data in the form field "file"');
  }
  const part = await request.file();
  if (!part) throw new ValidationError('file is required: send the build in the form field "file"', 'file');
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw new ValidationError(`file is required: the build must be in the form field "file", not "${part.fieldname}"`, 'file');
  }
  return part;
}

/**
 * Mobile builds (see storeBuild: a rejected, too large or interrupted upload leaves the previous build in
 * place). The stored file's path never leaves the server: clients see their own file name.
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
      config: { access: access.clientWritersAndOperators, action: 'upload builds' },
      schema: {
        tags: ['uploads'],
        summary: 'Upload the Android APK or iOS IPA build (multipart/form-data, field "file")',
        security: [{ bearer: [] }, { apiKey: [] }],
        consumes: ['multipart/form-data'],
        params: uploadParams,
        response: { 200: uploadResponse, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { platform, id } = request.params;
      assertClientAccess(request.principal, id);
      await getClient(app.db, id);
      const part = await buildPart(request);
      const who = { clientId: id, userId: request.principal?.userId, address: request.ip };
      const { size, sha256, app: appInfo } = await storeBuild({
        paths: app.paths,
        store: app.artifacts,
        clientId: id,
        platform,
        file: part.file,
        maxBytes,
        limits: archiveLimits,
        onRejected: (reason, rejectedSize) => audit(app.db, request.log, { type: 'upload.rejected', ...who, details: { platform, reason, size: rejectedSize } }),
      });
      const filePath = displayPath(platform, part.filename);
      const uploadTime = new Date();
      await recordUpload(app.db, {
        clientId: id,
        platform,
        filePath,
        sizeBytes: size,
        sha256,
        appInfo,
        uploadedBy: request.principal?.userId ?? null,
        uploadedAt: uploadTime,
      });
      app.cache.invalidate(id, 'profile');
      await audit(app.db, request.log, { type: 'upload.accepted', ...who, details: { platform, size } });
      return { message: UPLOAD_SUCCESS_MESSAGE, filePath, uploadTime: uploadTime.toISOString(), fileName: fileNameOf(filePath), sizeBytes: size, app: appInfo };
    },
  );

  app.delete(
    '/upload/:platform/:id',
    {
      config: { access: access.clientWritersAndOperators, action: 'delete builds' },
      schema: {
        tags: ['uploads'],
        summary: 'Delete the current Android or iOS build: its file is removed and tests that need it say so',
        security: [{ bearer: [] }, { apiKey: [] }],
        params: uploadParams,
        response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { platform, id } = request.params;
      assertClientAccess(request.principal, id);
      await getClient(app.db, id);
      const key = uploadedAppKey(id, platform);
      // The file as it is now: an upload that replaces it while this runs brings a new file, which stays.
      const before = await app.artifacts.stat(key).catch(() => null);
      const deleted = await deleteCurrentBuild(app.db, id, platform, { userId: request.principal?.userId ?? null, address: request.ip });
      if (!deleted) throw new NotFoundError(`No ${platform === 'android' ? 'Android' : 'iOS'} build to delete`);
      app.cache.invalidate(id, 'profile');
      // The record went first: no build is shown that has no file. A crash here leaves a file nothing points at.
      const now = await app.artifacts.stat(key).catch(() => null);
      if (before && now && before.size === now.size && before.lastModified?.getTime() === now.lastModified?.getTime()) await app.artifacts.delete(key);
      return { message: `${fileNameOf(deleted.fileName)} deleted` };
    },
  );
};

