import type { OpsClientDetail } from '@fullstop/contracts';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { getClient } from '../accounts/index.ts';
import { readApiKey } from '../accounts/index.ts';
import { maskApiKey } from '../../lib/api-keys.ts';
import { listSecrets } from '../secrets/index.ts';
import { currentSuite } from '../suites/index.ts';
import { listTargetOrigins } from '../targets/index.ts';
import { clientHealthMap, healthOf } from './health-repository.ts';

/** One client as the console's client page shows it; 404 "Client not found" for an unknown id. */
export async function clientDetail(db: Db, keys: ServerKeys, clientId: string): Promise<OpsClientDetail> {
  const client = await getClient(db, clientId);
  const [people, origins, apiKey, suite, secrets, health] = await Promise.all([
    db
      // A client's users are shown by their team role (owner, member, viewer).
      .select({ id: users.id, name: users.username, email: users.email, role: sql<string>`coalesce(${users.teamRole}, ${users.role})`, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.clientId, clientId))
      .orderBy(asc(users.createdAt), asc(users.email)),
    listTargetOrigins(db, clientId),
    readApiKey(db, keys, clientId),
    currentSuite(db, clientId),
    listSecrets(db, clientId),
    clientHealthMap(db, clientId),
  ]);
  return {
    id: client.id,
    clientName: client.name,
    website: client.website,
    createdAt: client.createdAt.toISOString(),
    apiKeyMasked: maskApiKey(apiKey ?? ''),
    users: people.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() })),
    origins,
    suiteVersion: suite?.version ?? null,
    secretNames: secrets.map((s) => s.name),
    health: healthOf(health, clientId),
  };
}
