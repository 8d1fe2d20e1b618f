import type { ClientProfile } from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { clients } from '../../db/schema/index.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { readApiKey } from '../auth/api-keys.ts';

/** The spec's client profile, or null when there is no such client. */
export async function loadClientProfile(db: Db, keys: ServerKeys, clientId: string): Promise<ClientProfile | null> {
  const [client] = await db.select().from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!client) return null;
  return {
    id: client.id,
    website: client.website,
    apiToken: (await readApiKey(db, keys, client.id)) ?? '',
    clientName: client.name,
    androidAppPath: client.androidAppPath,
    androidAppUploaded: client.androidAppUploaded?.toISOString() ?? null,
    iosAppPath: client.iosAppPath,
    iosAppUploaded: client.iosAppUploaded?.toISOString() ?? null,
  };
}
