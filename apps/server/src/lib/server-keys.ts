import { randomBytes, hkdfSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Keys derived from the one server key, each for one purpose, so no key is ever used twice. */
export interface ServerKeys {
  jwt: Uint8Array;
  encryption: Buffer;
  lookup: Buffer;
}

function parseKey(text: string, origin: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length < 32) throw new Error(`${origin}: the server key must be at least 32 bytes (hex or base64)`);
  return key;
}

/** Reads or creates a file only its owner can read. `wx` makes two racing first starts agree on one value. */
export function readOrCreateSecretFile(file: string, create: () => string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    writeFileSync(file, `${create()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}

export function loadServerKeys(dataDir: string, fromEnv: string | undefined): ServerKeys {
  const master = fromEnv
    ? parseKey(fromEnv, 'SERVER_KEY')
    : parseKey(
        readOrCreateSecretFile(path.join(dataDir, 'server-key'), () => randomBytes(32).toString('hex')),
        path.join(dataDir, 'server-key'),
      );
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
  return { jwt: new Uint8Array(derive('fullstop jwt')), encryption: derive('fullstop api-key encryption'), lookup: derive('fullstop api-key lookup') };
}
