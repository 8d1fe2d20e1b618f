import type { ClientSummary } from '@fullstop/contracts';
import type { Db } from '../../db/database.ts';
import { ConflictError } from '../../lib/errors.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { countUsersByClient, findUserByEmail, listClients } from '../accounts/index.ts';
import { normaliseEmail } from '../accounts/index.ts';
import { readApiKey } from '../accounts/index.ts';
import { maskApiKey } from '../../lib/api-keys.ts';

/** 409 before any work when the first user's email is taken (creating a client is all or nothing anyway). */
export async function assertEmailFree(db: Db, email: string): Promise<void> {
  if (await findUserByEmail(db, normaliseEmail(email))) throw new ConflictError('A user with this email already exists', 'email');
}

/** Every client as an operator sees it: its number of users, its API key masked. */
export async function listClientSummaries(db: Db, keys: ServerKeys): Promise<ClientSummary[]> {
  const rows = await listClients(db);
  const byClient = await countUsersByClient(db);
  const masked = await Promise.all(rows.map(async (c) => maskApiKey((await readApiKey(db, keys, c.id)) ?? '')));
  return rows.map((c, i) => ({
    id: c.id,
    clientName: c.name,
    website: c.website,
    createdAt: c.createdAt.toISOString(),
    users: byClient.get(c.id) ?? 0,
    apiKeyMasked: masked[i]!,
  }));
}
