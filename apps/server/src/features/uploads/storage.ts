import path from 'node:path';
import type { UploadPlatform } from '@fullstop/contracts';
import { artifactKey } from '../../lib/artifact-store/index.ts';
import type { Paths } from '../../lib/data-dir.ts';

const FILE_NAMES: Record<UploadPlatform, string> = { android: 'android.apk', ios: 'ios.ipa' };

/** A client's current build of a platform in the artifact store: `uploads/<client>/android.apk`. */
export function uploadedAppKey(clientId: string, platform: UploadPlatform): string {
  if (!/^[A-Za-z0-9-]+$/.test(clientId)) throw new Error(`unexpected client id ${JSON.stringify(clientId)}`);
  return artifactKey('uploads', clientId, FILE_NAMES[platform]);
}

/** Where a client's current build of a platform is kept with the data-directory store. */
export function uploadedAppFile(paths: Paths, clientId: string, platform: UploadPlatform): string {
  return path.join(clientUploadDir(paths, clientId), FILE_NAMES[platform]);
}

export function clientUploadDir(paths: Paths, clientId: string): string {
  // Client ids are server-made UUIDs; the check keeps a bad id from ever leaving the uploads folder.
  if (!/^[A-Za-z0-9-]+$/.test(clientId)) throw new Error(`unexpected client id ${JSON.stringify(clientId)}`);
  return path.join(paths.uploads, clientId);
}

/**
 * The path the portal shows: the platform and the uploaded file's own name, cleaned. It says nothing about
 * the server's folders.
 */
export function displayPath(platform: UploadPlatform, originalName: string | undefined): string {
  const fallback = platform === 'android' ? 'app.apk' : 'app.ipa';
  const base = path.basename((originalName ?? '').replace(/\\/g, '/'));
  const clean = base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(-120);
  return `${platform}/${clean || fallback}`;
}

/** The uploaded file's own name, from the path displayPath made. */
export function fileNameOf(filePath: string): string {
  return path.posix.basename(filePath);
}
