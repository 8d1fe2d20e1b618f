import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Env } from '../../config/env.ts';
import type { Paths } from '../data-dir.ts';
import type { ArtifactStore } from './artifact-store.ts';
import { DataDirStore } from './data-dir-store.ts';

export * from './artifact-store.ts';
export { DataDirStore } from './data-dir-store.ts';

/**
 * The store the configuration names: the data directory unless ARTIFACT_STORE=s3 (validated in env.ts). The AWS
 * SDK is loaded only for a bucket: a process on the data directory never holds it.
 */
export async function createArtifactStore(env: Env, paths: Paths): Promise<ArtifactStore> {
  if (env.ARTIFACT_STORE !== 's3') return new DataDirStore(paths.storage);
  const { S3Store } = await import('./s3-store.ts');
  return new S3Store(s3ConfigOf(env));
}

export interface S3Config {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  /** Prepended to every key (several installations in one bucket); empty or ending with `/`. */
  prefix: string;
}

export function s3ConfigOf(env: Env): S3Config {
  if (!env.S3_BUCKET) throw new Error('S3_BUCKET is required with ARTIFACT_STORE=s3');
  const prefix = env.S3_PREFIX.replace(/^\/+|\/+$/g, '');
  return {
    endpoint: env.S3_ENDPOINT,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? env.S3_ENDPOINT !== undefined,
    prefix: prefix ? `${prefix}/` : '',
  };
}

/**
 * Hands a finished local file (an upload checked in a scratch folder) to the store under `key`: renamed into
 * place in the data directory, uploaded and removed with a remote store. On failure the local file is removed.
 */
export async function moveIn(store: ArtifactStore, key: string, file: string): Promise<number> {
  try {
    const local = store.localPath(key);
    if (local === null) return await store.putFile(key, file);
    await mkdir(path.dirname(local), { recursive: true, mode: 0o700 });
    await rename(file, local);
    return (await stat(local)).size;
  } finally {
    await rm(file, { force: true });
  }
}
