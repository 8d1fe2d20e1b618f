import type { Db } from '../../db/database.ts';
import type { TeamRole, UserRole } from '../../db/schema/index.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { replaceApiKey } from './api-key-repository.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { getClient, insertClient, insertUser } from './repository.ts';

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
    const clientId = await insertClient(tx, input);
    const apiKey = await replaceApiKey(tx, keys, clientId);
    return { clientId, apiKey };
  });
}

export interface NewUser {
  email: string;
  password: string;
  username?: string | undefined;
  role?: UserRole;
  clientId: string | null;
  /** A client user's role in their team: member unless given (the client's first user is its owner). */
  teamRole?: TeamRole | undefined;
}

export async function createUser(db: Db, input: NewUser): Promise<{ userId: string }> {
  const email = normaliseEmail(input.email);
  const role = input.role ?? 'client';
  if (role === 'client') {
    if (!input.clientId) throw new NotFoundError('Client not found');
    await getClient(db, input.clientId);
  }
  const userId = await insertUser(db, {
    email,
    username: input.username ?? email.split('@')[0]!,
    passwordHash: await hashPassword(input.password),
    role,
    clientId: role === 'operator' ? null : input.clientId,
    teamRole: role === 'operator' ? null : (input.teamRole ?? 'member'),
  });
  if (!userId) throw new ConflictError('A user with this email already exists', 'email');
  return { userId };
}

/** A client, its first user (the team's owner) and API key, all or nothing. */
export async function createClientWithUser(
  db: Db,
  keys: ServerKeys,
  input: { name: string; website: string } & Omit<NewUser, 'clientId' | 'role' | 'teamRole'>,
): Promise<{ clientId: string; userId: string; apiKey: string }> {
  return db.transaction(async (tx) => {
    const { clientId, apiKey } = await createClient(tx, keys, input);
    const { userId } = await createUser(tx, { ...input, clientId, teamRole: 'owner' });
    return { clientId, userId, apiKey };
  });
}
