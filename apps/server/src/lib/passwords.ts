import type * as Argon2Module from '@node-rs/argon2';

/**
 * @node-rs/argon2 allocates each hash's 19 MiB through the mimalloc it carries, whose default purge delay (10 ms) is
 * only honoured by a later call to that allocator on the same thread: the libuv thread that hashed keeps the pages,
 * so the server held 19 MiB per hash that ever ran at once (38-57 MB after a few logins in parallel). Purged at once,
 * each hash faults its memory in again: ~6 ms more per hash. Set before the package loads (mimalloc reads its options
 * then), unless the environment already says otherwise. Decision 0105.
 */
type Argon2 = typeof Argon2Module;
let argon2: Promise<Argon2> | undefined;
function loadArgon2(): Promise<Argon2> {
  if (!argon2) {
    process.env.MIMALLOC_PURGE_DELAY ??= '0';
    argon2 = import('@node-rs/argon2');
  }
  return argon2;
}

/** Algorithm.Argon2id: the package's const enum cannot be imported under verbatimModuleSyntax. */
const ARGON2ID = 2;

// OWASP's argon2id minimum (19 MiB, 2 passes): ~10-60 ms here, slow enough for a stolen hash, fast for a login.
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export async function hashPassword(password: string): Promise<string> {
  return (await loadArgon2()).hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/** Verifies a password; with no stored hash it still spends the same time, so timing does not reveal accounts. */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  if (!storedHash) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
