import type { RunTarget } from '@fullstop/engine';
import { uploadedAppFile } from '../../uploads/storage.ts';
import { findClient } from '../../accounts/repository.ts';
import type { EngineDeps } from '../deps.ts';
import { listTargetOrigins } from './target-origin-repository.ts';

/**
 * What a client's tests may reach: its website's origin plus origins an operator added. Loopback and private
 * addresses only when the server allows them, or for the demo client, which tests this product on localhost.
 */
export async function runTargetFor(deps: Pick<EngineDeps, 'db' | 'config' | 'demoClientId' | 'paths'>, clientId: string): Promise<RunTarget> {
  const client = await findClient(deps.db, clientId);
  if (!client) throw new Error(`client ${clientId} no longer exists`);
  const extra = await listTargetOrigins(deps.db, clientId);
  const origins = new Set<string>();
  try {
    origins.add(new URL(client.website).origin);
  } catch {
    // An unparsable website: the runners refuse every URL and say why.
  }
  for (const o of extra) origins.add(o);
  return {
    baseUrl: client.website,
    allowedOrigins: [...origins],
    allowPrivateAddresses: deps.config.allowPrivateTargets || clientId === deps.demoClientId,
    // The stored files, never the names the portal shows (androidAppPath/iosAppPath are the client's file names).
    androidApp: client.androidAppUploaded ? uploadedAppFile(deps.paths, clientId, 'android') : null,
    iosApp: client.iosAppUploaded ? uploadedAppFile(deps.paths, clientId, 'ios') : null,
  };
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
