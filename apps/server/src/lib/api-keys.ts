import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { ServerKeys } from './server-keys.ts';

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

/** The key sealed under the server key (AES-256-GCM), so the portal can show it again. */
export function sealApiKey(keys: ServerKeys, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.encryption, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

export function openApiKey(keys: ServerKeys, sealed: string): string {
  const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !data) throw new Error('malformed encrypted API key');
  const decipher = createDecipheriv('aes-256-gcm', keys.encryption, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}
