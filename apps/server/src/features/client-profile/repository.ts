import type { ClientProfile } from '@fullstop/contracts';
import type { Db } from '../../db/database.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { findClient } from '../accounts/index.ts';
import { readApiKey } from '../accounts/index.ts';
import { currentBuild } from '../uploads/index.ts';

/** The spec's client profile, or null when there is no such client. */
export async function loadClientProfile(db: Db, keys: ServerKeys, clientId: string): Promise<ClientProfile | null> {
  const client = await findClient(db, clientId);
  if (!client) return null;
  const android = client.androidAppPath ? await currentBuild(db, client.id, 'android') : null;
  const ios = client.iosAppPath ? await currentBuild(db, client.id, 'ios') : null;
  return {
    id: client.id,
    website: client.website,
    apiToken: (await readApiKey(db, keys, client.id)) ?? '',
    clientName: client.name,
    androidAppPath: client.androidAppPath,
    androidAppUploaded: client.androidAppUploaded?.toISOString() ?? null,
    iosAppPath: client.iosAppPath,
    iosAppUploaded: client.iosAppUploaded?.toISOString() ?? null,
    androidAppSize: android?.sizeBytes ?? null,
    iosAppSize: ios?.sizeBytes ?? null,
    androidApp: android?.appInfo ?? null,
    iosApp: ios?.appInfo ?? null,
  };
}
