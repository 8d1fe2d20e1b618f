import type { RunTarget } from '@fullstop/engine';
import path from 'node:path';
import type { UploadPlatform } from '@fullstop/contracts';
import { uploadedAppKey } from '../uploads/index.ts';
import { findClient } from '../accounts/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { paymentPresetOrigins } from './payment-presets.ts';
import { listTargetOrigins } from './target-origin-repository.ts';

/**
 * What a client's tests may reach: its website's origin, origins an operator added, and the origins of the payment
 * providers whose presets an operator switched on for this client. Loopback and private addresses only when the
 * server allows them, or for the demo client, which tests this product on localhost.
 */
export async function runTargetFor(
  deps: Pick<EngineDeps, 'db' | 'config' | 'demoClientId' | 'paths' | 'artifacts'>,
  clientId: string,
  /** Set for a run that reads the uploaded builds: with a remote store they are copied here first (name prefix). */
  buildsScratch?: string,
): Promise<RunTarget> {
  const client = await findClient(deps.db, clientId);
  if (!client) throw new Error(`client ${clientId} no longer exists`);
  const [added, presets] = await Promise.all([listTargetOrigins(deps.db, clientId), paymentPresetOrigins(deps.db, clientId)]);
  const origins = new Set<string>();
  try {
    origins.add(new URL(client.website).origin);
  } catch {
    // An unparsable website: the runners refuse every URL and say why.
  }
  for (const o of [...added, ...presets]) origins.add(o);
  return {
    baseUrl: client.website,
    allowedOrigins: [...origins],
    allowPrivateAddresses: deps.config.allowPrivateTargets || clientId === deps.demoClientId,
    // The stored files, never the names the portal shows (androidAppPath/iosAppPath are the client's file names).
    androidApp: client.androidAppUploaded ? await buildFile(deps, clientId, 'android', buildsScratch) : null,
    iosApp: client.iosAppUploaded ? await buildFile(deps, clientId, 'ios', buildsScratch) : null,
  };
}

/**
 * A build as a file on this machine: the store's own file with the data directory; with a remote store a copy
 * under `scratch` (removed by the caller after the run), or null when the run does not read builds.
 */
async function buildFile(deps: Pick<EngineDeps, 'paths' | 'artifacts'>, clientId: string, platform: UploadPlatform, scratch: string | undefined): Promise<string | null> {
  const key = uploadedAppKey(clientId, platform);
  const local = deps.artifacts.localPath(key);
  if (local !== null) return local;
  if (!scratch) return null;
  const file = `${scratch}-${path.posix.basename(key)}`;
  return (await deps.artifacts.download(key, file)) ? file : null;
}

/** An origin an operator may add: http(s), no path, query or credentials. Returns the normalised origin. */
export function parseOrigin(raw: string): string | null {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) return null;
    return u.origin;
  } catch {
    return null;
  }
}
