import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { apiKeys } from '../../db/schema/index.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { API_KEY_PREFIX, apiKeyLookupHash, openApiKey, sealApiKey } from '../../lib/api-keys.ts';
import { randomToken } from '../../lib/tokens.ts';

/**
 * Gives the client a new API key and deletes the old one in the same statement batch, so the old key stops
 * working the moment this returns. Pass a transaction's handle when called inside one.
 */
export async function replaceApiKey(db: Db, keys: ServerKeys, clientId: string): Promise<string> {
  const apiKey = randomToken(API_KEY_PREFIX);
  const row = { clientId, lookupHash: apiKeyLookupHash(keys, apiKey), encrypted: sealApiKey(keys, apiKey) };
  await db
    .insert(apiKeys)
    .values(row)
    .onConflictDoUpdate({ target: apiKeys.clientId, set: { ...row, createdAt: new Date() } });
  return apiKey;
}

export async function findClientIdByApiKey(db: Db, keys: ServerKeys, apiKey: string): Promise<string | null> {
  if (!apiKey.startsWith(API_KEY_PREFIX) || apiKey.length > 200) return null;
  const [row] = await db
    .select({ clientId: apiKeys.clientId })
    .from(apiKeys)
    .where(eq(apiKeys.lookupHash, apiKeyLookupHash(keys, apiKey)))
    .limit(1);
  return row?.clientId ?? null;
}

export async function readApiKey(db: Db, keys: ServerKeys, clientId: string): Promise<string | null> {
  const [row] = await db.select({ encrypted: apiKeys.encrypted }).from(apiKeys).where(eq(apiKeys.clientId, clientId)).limit(1);
  return row ? openApiKey(keys, row.encrypted) : null;
}
