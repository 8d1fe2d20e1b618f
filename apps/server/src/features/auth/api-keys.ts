import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { apiKeys } from '../../db/schema/index.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { randomToken } from './tokens.ts';

export const API_KEY_PREFIX = 'fsk_';

/**
 * What an operator sees of a client's key: the prefix and the last four characters, enough to tell keys apart,
 * never enough to use one. The whole key takes the audited reveal route.
 */
export function maskApiKey(apiKey: string): string {
  if (!apiKey) return '';
  return `${API_KEY_PREFIX}…${apiKey.slice(-4)}`;
}

export function apiKeyLookupHash(keys: ServerKeys, apiKey: string): string {
  return createHmac('sha256', keys.lookup).update(apiKey).digest('hex');
}

function encrypt(keys: ServerKeys, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.encryption, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

function decrypt(keys: ServerKeys, sealed: string): string {
  const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !data) throw new Error('malformed encrypted API key');
  const decipher = createDecipheriv('aes-256-gcm', keys.encryption, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

/**
 * Gives the client a new API key and deletes the old one in the same statement batch, so the old key stops
 * working the moment this returns. Pass a transaction's handle when called inside one.
 */
export async function replaceApiKey(db: Db, keys: ServerKeys, clientId: string): Promise<string> {
  const apiKey = randomToken(API_KEY_PREFIX);
  const row = { clientId, lookupHash: apiKeyLookupHash(keys, apiKey), encrypted: encrypt(keys, apiKey) };
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
  return row ? decrypt(keys, row.encrypted) : null;
}
