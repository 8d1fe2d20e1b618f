import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { clients, type TeamRole, type UserRole, users } from '../../db/schema/index.ts';
import { NotFoundError } from '../../lib/errors.ts';

/** Clients and their users: every query on the two tables. */

export type ClientRow = typeof clients.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export async function insertClient(db: Db, input: { name: string; website: string }): Promise<string> {
  const [row] = await db.insert(clients).values({ name: input.name, website: input.website }).returning({ id: clients.id });
  return row!.id;
}

export async function findClient(db: Db, clientId: string): Promise<ClientRow | null> {
  const [client] = await db.select().from(clients).where(eq(clients.id, clientId)).limit(1);
  return client ?? null;
}

/** The one "does this client exist" check, for every route and service: the client, or 404 "Client not found". */
export async function getClient(db: Db, clientId: string): Promise<ClientRow> {
  const client = await findClient(db, clientId);
  if (!client) throw new NotFoundError('Client not found');
  return client;
}

export async function listClients(db: Db): Promise<ClientRow[]> {
  return db.select().from(clients).orderBy(asc(clients.createdAt), asc(clients.id));
}

export async function hasAnyClient(db: Db): Promise<boolean> {
  const rows = await db.select({ id: clients.id }).from(clients).limit(1);
  return rows.length > 0;
}

/** Where a client's current build of a platform is, shown in its profile. */
export async function setCurrentApp(
  db: Db,
  clientId: string,
  platform: 'android' | 'ios',
  filePath: string,
  uploaded: Date,
): Promise<void> {
  await db
    .update(clients)
    .set(platform === 'android' ? { androidAppPath: filePath, androidAppUploaded: uploaded } : { iosAppPath: filePath, iosAppUploaded: uploaded })
    .where(eq(clients.id, clientId));
}

export interface UserValues {
  email: string;
  username: string;
  passwordHash: string;
  role: UserRole;
  clientId: string | null;
  teamRole: TeamRole | null;
}

/** The new user's id, or null when the email is taken. */
export async function insertUser(db: Db, values: UserValues): Promise<string | null> {
  const [row] = await db.insert(users).values(values).onConflictDoNothing({ target: users.email }).returning({ id: users.id });
  return row?.id ?? null;
}

export async function findUserById(db: Db, userId: string): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return user ?? null;
}

/** By an email already normalised (stored lower-cased). */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return user ?? null;
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash, passwordChangedAt: sql`now()` }).where(eq(users.id, userId));
}

/** How many users each client has (clients without users are absent). */
export async function countUsersByClient(db: Db): Promise<Map<string | null, number>> {
  const rows = await db.select({ clientId: users.clientId, n: count() }).from(users).groupBy(users.clientId);
  return new Map(rows.map((r) => [r.clientId, Number(r.n)]));
}

/** Who hears of a change to a client's bugs and requests: its users. */
export async function clientEmails(db: Db, clientId: string): Promise<string[]> {
  const rows = await db.select({ email: users.email }).from(users).where(eq(users.clientId, clientId));
  return rows.map((r) => r.email);
}

/** The QA team: every operator user. */
export async function operatorEmails(db: Db): Promise<string[]> {
  const rows = await db.select({ email: users.email }).from(users).where(eq(users.role, 'operator'));
  return rows.map((r) => r.email);
}

/** The user's name, or null (no user, or one since removed). */
export async function userName(db: Db, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.username ?? null;
}

/** Who an operator's decision is shown as: their name, or the operator token's when no user made it. */
export async function operatorName(db: Db, userId: string | null): Promise<string> {
  return (await userName(db, userId)) ?? 'Fullstop QA (operator token)';
}
