import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { deleteClientRows } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { suiteSecrets } from '../../db/schema/index.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { openApiKey, sealApiKey } from '../../lib/api-keys.ts';

// A client's suite-login secrets (suite_secrets), sealed with the same AES-256-GCM under the server key as API keys.

export interface SecretRow {
  name: string;
  setAt: Date;
}

/** Names and dates only: a secret's value never leaves the server except in a run request to a runner. */
export async function listSecrets(db: Db, clientId: string): Promise<SecretRow[]> {
  return db
    .select({ name: suiteSecrets.name, setAt: suiteSecrets.updatedAt })
    .from(suiteSecrets)
    .where(eq(suiteSecrets.clientId, clientId))
    .orderBy(asc(suiteSecrets.name));
}

/** Sets (or replaces) a secret; true when it replaced one. */
export async function setSecret(db: Db, keys: ServerKeys, clientId: string, name: string, value: string): Promise<boolean> {
  const encrypted = sealApiKey(keys, value);
  const [row] = await db
    .insert(suiteSecrets)
    .values({ clientId, name, encrypted })
    .onConflictDoUpdate({ target: [suiteSecrets.clientId, suiteSecrets.name], set: { encrypted, updatedAt: sql`now()` } })
    .returning({ created: suiteSecrets.createdAt, updated: suiteSecrets.updatedAt });
  return row!.updated.getTime() !== row!.created.getTime();
}

/** False when the client has no secret of that name. */
export async function deleteSecret(db: Db, clientId: string, name: string): Promise<boolean> {
  return deleteClientRows(db, suiteSecrets, clientId, eq(suiteSecrets.name, name));
}

/** The values of the named secrets the client has set, by name (for one attempt's run request). */
export async function readSecrets(db: Db, keys: ServerKeys, clientId: string, names: string[]): Promise<Record<string, string>> {
  if (!names.length) return {};
  const rows = await db
    .select({ name: suiteSecrets.name, encrypted: suiteSecrets.encrypted })
    .from(suiteSecrets)
    .where(and(eq(suiteSecrets.clientId, clientId), inArray(suiteSecrets.name, names)));
  return Object.fromEntries(rows.map((r) => [r.name, openApiKey(keys, r.encrypted)]));
}
