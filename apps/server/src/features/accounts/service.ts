import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { clients, type UserRole, users } from '../../db/schema/index.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { replaceApiKey } from '../auth/api-keys.ts';
import { hashPassword } from '../auth/passwords.ts';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Creates a client with its first API key (the profile always has an apiToken). */
export async function createClient(
  db: Db,
  keys: ServerKeys,
  input: { name: string; website: string },
): Promise<{ clientId: string; apiKey: string }> {
  // Nested in createClientWithUser's transaction this becomes a savepoint.
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(clients).values({ name: input.name, website: input.website }).returning({ id: clients.id });
    const clientId = row!.id;
    const apiKey = await replaceApiKey(tx as unknown as Db, keys, clientId);
    return { clientId, apiKey };
  });
}

export interface NewUser {
  email: string;
  password: string;
  username?: string | undefined;
  role?: UserRole;
  clientId: string | null;
}

export async function createUser(db: Db, input: NewUser): Promise<{ userId: string }> {
  const email = normaliseEmail(input.email);
  const role = input.role ?? 'client';
  if (role === 'client') {
    if (!input.clientId) throw new NotFoundError('Client not found');
    const [client] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, input.clientId)).limit(1);
    if (!client) throw new NotFoundError('Client not found');
  }
  const passwordHash = await hashPassword(input.password);
  const [row] = await db
    .insert(users)
    .values({
      email,
      username: input.username ?? email.split('@')[0]!,
      passwordHash,
      role,
      clientId: role === 'operator' ? null : input.clientId,
    })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  if (!row) throw new ConflictError('A user with this email already exists', 'email');
  return { userId: row.id };
}

export async function listClients(db: Db) {
  return db.select().from(clients).orderBy(asc(clients.createdAt), asc(clients.id));
}

export async function countClients(db: Db): Promise<number> {
  const rows = await db.select({ id: clients.id }).from(clients).limit(1);
  return rows.length;
}

/** A client, its first user and API key, all or nothing. */
export async function createClientWithUser(
  db: Db,
  keys: ServerKeys,
  input: { name: string; website: string } & Omit<NewUser, 'clientId' | 'role'>,
): Promise<{ clientId: string; userId: string; apiKey: string }> {
  return db.transaction(async (tx) => {
    const { clientId, apiKey } = await createClient(tx as unknown as Db, keys, input);
    const { userId } = await createUser(tx as unknown as Db, { ...input, clientId });
    return { clientId, userId, apiKey };
  });
}
