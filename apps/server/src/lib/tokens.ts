import { createHash, randomBytes } from 'node:crypto';

/** An opaque random token (refresh, reset); only its hash is stored. */
export function randomToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
