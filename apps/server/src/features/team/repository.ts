import { and, asc, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { findClientRow } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { clients, invitations, type TeamRole, users } from '../../db/schema/index.ts';
import { randomToken, sha256 } from '../../lib/tokens.ts';

/** A client's team: its users' roles and the owners' invitations. Every query on `invitations`. */

export type InvitationRow = typeof invitations.$inferSelect;

/** The one who sent it is still an owner of the team it invites to: an invitation dies with that role (decision 0076). */
const inviterStillOwner = sql<boolean>`exists (select 1 from ${users} inviter where inviter.id = ${invitations.invitedBy} and inviter.client_id = ${invitations.clientId} and inviter.team_role = 'owner')`;

const pending = and(isNull(invitations.acceptedAt), gt(invitations.expiresAt, sql`now()`), inviterStillOwner);

export async function listMembers(db: Db, clientId: string) {
  return db
    .select({ userId: users.id, username: users.username, email: users.email, role: users.teamRole, joinedAt: users.createdAt })
    .from(users)
    .where(eq(users.clientId, clientId))
    .orderBy(asc(users.createdAt), asc(users.id));
}

/** The invitations not yet accepted and not expired, newest first, with the inviter's username. */
export async function listPendingInvitations(db: Db, clientId: string) {
  return db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.teamRole,
      expiresAt: invitations.expiresAt,
      invitedBy: users.username,
      createdAt: invitations.createdAt,
    })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(and(eq(invitations.clientId, clientId), pending))
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
}

/**
 * A new invitation; the same e-mail's earlier pending invitations to this client stop working (the newest link
 * is the one that counts). Answers the row and its token, which only the mail ever holds.
 */
export async function createInvitation(
  db: Db,
  input: { clientId: string; email: string; teamRole: TeamRole; invitedBy: string; ttlSeconds: number },
): Promise<{ invitation: InvitationRow; token: string }> {
  const token = randomToken('fsi_');
  return db.transaction(async (tx) => {
    await tx.delete(invitations).where(and(eq(invitations.clientId, input.clientId), eq(invitations.email, input.email), isNull(invitations.acceptedAt)));
    const [invitation] = await tx
      .insert(invitations)
      .values({
        clientId: input.clientId,
        email: input.email,
        teamRole: input.teamRole,
        invitedBy: input.invitedBy,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + input.ttlSeconds * 1000),
      })
      .returning();
    return { invitation: invitation!, token };
  });
}

/** Cancels a client's invitation not yet accepted: its link stops working. False when there is none by that id. */
export async function deletePendingInvitation(db: Db, clientId: string, id: string): Promise<InvitationRow | null> {
  const [row] = await db
    .delete(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.clientId, clientId), isNull(invitations.acceptedAt)))
    .returning();
  return row ?? null;
}

/** An invitation by its link's token, whatever its state, with its client's name. */
export async function findInvitationByToken(db: Db, token: string) {
  const [row] = await db
    .select({ invitation: invitations, clientName: clients.name, inviterStillOwner })
    .from(invitations)
    .innerJoin(clients, eq(clients.id, invitations.clientId))
    .where(eq(invitations.tokenHash, sha256(token)))
    .limit(1);
  return row ?? null;
}

/**
 * The invitations a demoted or removed owner sent and nobody accepted yet: they lose their sender for good, so
 * making that person an owner again does not bring them back.
 */
export async function orphanInvitations(db: Db, userId: string): Promise<void> {
  await db.update(invitations).set({ invitedBy: null }).where(and(eq(invitations.invitedBy, userId), isNull(invitations.acceptedAt)));
}

/** Uses an invitation up, atomically (single use): the row, or null when unknown, used or expired. */
export async function useInvitation(db: Db, token: string): Promise<InvitationRow | null> {
  const [row] = await db
    .update(invitations)
    .set({ acceptedAt: sql`now()` })
    .where(and(eq(invitations.tokenHash, sha256(token)), pending))
    .returning();
  return row ?? null;
}

/**
 * Serialises changes to one client's team (role changes, removals) until the transaction ends, so two owners
 * demoting each other at once cannot leave the team without one.
 */
export async function lockTeam(db: Db, clientId: string): Promise<void> {
  await db.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId)).for('update');
}

export function findMember(db: Db, clientId: string, userId: string) {
  return findClientRow(db, users, clientId, eq(users.id, userId));
}

export async function countOwners(db: Db, clientId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.teamRole, 'owner')));
  return Number(row?.n ?? 0);
}

export async function setTeamRole(db: Db, userId: string, role: TeamRole): Promise<void> {
  await db.update(users).set({ teamRole: role }).where(eq(users.id, userId));
}

export async function deleteUser(db: Db, userId: string): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}
