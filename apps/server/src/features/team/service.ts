import {
  INVITATION_TTL_DAYS,
  type InvitationPreview,
  type LoginResponse,
  type TeamInvitation,
  type TeamResponse,
  type TeamRole,
} from '@fullstop/contracts';
import { type Env, publicUrl } from '../../config/env.ts';
import type { Db } from '../../db/database.ts';
import { audit } from '../../lib/audit.ts';
import { AppError, ConflictError, ForbiddenError, NotFoundError, TooManyRequestsError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { findUserByEmail, findUserById, getClient, type UserRow } from '../accounts/index.ts';
import { createUser, normaliseEmail } from '../accounts/index.ts';
import type { Principal } from '../auth/index.ts';
import type { Caller } from '../auth/index.ts';
import type { SessionService } from '../auth/index.ts';
import { takeAttempt, throttleMessage } from '../auth/index.ts';
import { giveBack } from '../auth/index.ts';
import {
  countOwners,
  createInvitation,
  deletePendingInvitation,
  deleteUser,
  findInvitationByToken,
  findMember,
  listMembers,
  listPendingInvitations,
  lockTeam,
  orphanInvitations,
  setTeamRole,
  useInvitation,
  type InvitationRow,
} from './repository.ts';

export interface TeamDeps {
  db: Db;
  env: Env;
  mailer: Mailer;
  sessions: SessionService;
  /** Starts a session for a user who just joined: the login's answer. */
  startLogin(user: UserRow): Promise<LoginResponse>;
}

const INVITATION_TTL_SECONDS = INVITATION_TTL_DAYS * 24 * 3600;
const inviteAddressKey = (ip: string) => `invite-address:${ip}`;

const LAST_OWNER_MESSAGE = 'A team needs at least one owner: make another member an owner first';

const invitationOf = (row: { id: string; email: string; role: TeamRole; expiresAt: Date; invitedBy: string | null; createdAt: Date }): TeamInvitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  expiresAt: row.expiresAt.toISOString(),
  invitedBy: row.invitedBy,
  createdAt: row.createdAt.toISOString(),
});

/** Why a link no longer works, in the words the invitation page shows. */
function invitationGone(found: { invitation: InvitationRow; inviterStillOwner: boolean } | null): AppError {
  const invitation = found?.invitation;
  if (!invitation) return new AppError(404, 'INVITATION_NOT_FOUND', 'This invitation link is not valid. Please check that you copied the whole link from the e-mail.');
  if (invitation.acceptedAt) {
    return new AppError(410, 'INVITATION_USED', 'This invitation has already been accepted. Log in with the e-mail address and password you chose.');
  }
  if (invitation.expiresAt.getTime() > Date.now() && !found.inviterStillOwner) {
    return new AppError(410, 'INVITATION_REVOKED', 'This invitation no longer works: the person who sent it is no longer an owner of the team. Please ask a current owner to send you a new one.');
  }
  return new AppError(410, 'INVITATION_EXPIRED', 'This invitation has expired. Please ask an owner of your team to send you a new one.');
}

const ACCOUNT_ELSEWHERE =
  'This e-mail address already has a Fullstop QA account, and an account belongs to one team only. Log in with it, or ask the owner who invited you to invite another address of yours.';

/** The signed-in client user calling (an API key or an operator is not a team member). */
async function caller(db: Db, principal: Principal | null): Promise<UserRow & { clientId: string }> {
  const user = principal?.via === 'bearer' && principal.userId && principal.role === 'client' ? await findUserById(db, principal.userId) : null;
  if (!user?.clientId) throw new ForbiddenError("Only a client's signed-in users can see and manage its team");
  return user as UserRow & { clientId: string };
}

async function owner(db: Db, principal: Principal | null) {
  const user = await caller(db, principal);
  if (user.teamRole !== 'owner') throw new ForbiddenError('Only an owner of your team can do this');
  return user;
}

/**
 * A client's team: who is in it with which role, and the invitations its owners send. Owners are checked
 * against the database on every call, not against the token, so a demoted owner loses the right at once.
 * One function per action, each over the feature's deps (docs/decisions/0071).
 */
export async function viewTeam(deps: TeamDeps, principal: Principal | null): Promise<TeamResponse> {
  const { db } = deps;
  const user = await caller(db, principal);
  const [members, invitations] = await Promise.all([listMembers(db, user.clientId), listPendingInvitations(db, user.clientId)]);
  return {
    yourRole: user.teamRole ?? 'member',
    members: members.map((m) => ({ ...m, role: m.role ?? 'member', joinedAt: m.joinedAt.toISOString() })),
    invitations: invitations.map(invitationOf),
  };
}

export async function inviteMember(deps: TeamDeps, principal: Principal | null, rawEmail: string, role: TeamRole, { address, log }: Caller): Promise<TeamInvitation> {
  const { db, env } = deps;
  const inviter = await owner(db, principal);
  const email = normaliseEmail(rawEmail);
  // Only the caller's own team is told apart (its members are listed to them anyway); an account with another
  // client gets the same answer and mail as a new address, and accepting explains (decision 0076).
  if ((await findUserByEmail(db, email))?.clientId === inviter.clientId) {
    throw new ConflictError('This person is already a member of your team', 'email');
  }
  const client = await getClient(db, inviter.clientId);
  const { invitation, token } = await createInvitation(db, {
    clientId: inviter.clientId,
    email,
    teamRole: role,
    invitedBy: inviter.id,
    ttlSeconds: INVITATION_TTL_SECONDS,
  });
  const link = `${publicUrl(env)}/invite?token=${encodeURIComponent(token)}`;
  try {
    await deps.mailer.send({
      to: email,
      subject: `${inviter.username} invited you to ${client.name} on Fullstop QA`,
      text:
        `${inviter.username} invited you to join the ${client.name} team on Fullstop QA as ${role === 'owner' ? 'an owner' : `a ${role}`}.\n\n` +
        `To accept, open this link within ${INVITATION_TTL_DAYS} days and choose your password:\n${link}\n\n` +
        'If you did not expect this invitation, you can ignore this message.\n',
    });
  } catch (err) {
    // No invitation without its mail: the owner is told to try again.
    await deletePendingInvitation(db, inviter.clientId, invitation.id);
    throw new AppError(502, 'MAIL_FAILED', 'The invitation could not be sent. Please try again in a few minutes.', { cause: err });
  }
  await audit(db, log, {
    type: 'invitation.sent',
    clientId: inviter.clientId,
    userId: inviter.id,
    address,
    details: { invitationId: invitation.id, email, role },
  });
  return invitationOf({ ...invitation, role: invitation.teamRole, invitedBy: inviter.username });
}

export async function cancelInvitation(deps: TeamDeps, principal: Principal | null, id: string, { address, log }: Caller): Promise<void> {
  const { db } = deps;
  const user = await owner(db, principal);
  const removed = await deletePendingInvitation(db, user.clientId, id);
  if (!removed) throw new NotFoundError('Invitation not found');
  await audit(db, log, { type: 'invitation.cancelled', clientId: user.clientId, userId: user.id, address, details: { invitationId: id, email: removed.email } });
}

export async function previewInvitation(deps: TeamDeps, token: string): Promise<InvitationPreview> {
  const { db } = deps;
  const found = await findInvitationByToken(db, token);
  const invitation = found?.invitation ?? null;
  if (!found || !invitation || invitation.acceptedAt || invitation.expiresAt.getTime() <= Date.now() || !found.inviterStillOwner) throw invitationGone(found);
  return { clientName: found.clientName, email: invitation.email, role: invitation.teamRole, expiresAt: invitation.expiresAt.toISOString() };
}

/** Makes the invited person's account (once per link) and logs them in. */
export async function acceptInvitation(deps: TeamDeps, token: string, username: string, password: string, { address, log }: Caller): Promise<LoginResponse> {
  const { db, env } = deps;
  // Like the login: a source that keeps presenting bad links is slowed down.
  const limit = { key: inviteAddressKey(address), max: env.LOGIN_MAX_FAILURES_PER_ADDRESS, windowSeconds: env.LOGIN_THROTTLE_WINDOW };
  const wait = await takeAttempt(db, [limit]);
  if (wait > 0) throw new TooManyRequestsError(throttleMessage(wait), wait);
  const joined = await db.transaction(async (tx) => {
    const invitation = await useInvitation(tx, token);
    if (!invitation) throw invitationGone(await findInvitationByToken(tx, token));
    if (await findUserByEmail(tx, invitation.email)) throw new ConflictError(ACCOUNT_ELSEWHERE, 'email');
    const { userId } = await createUser(tx, { email: invitation.email, password, username, clientId: invitation.clientId, teamRole: invitation.teamRole });
    return { invitation, userId };
  });
  await giveBack(db, [limit.key]);
  const user = await findUserById(db, joined.userId);
  if (!user) throw new NotFoundError('User not found');
  await audit(db, log, {
    type: 'invitation.accepted',
    clientId: user.clientId,
    userId: user.id,
    address,
    details: { invitationId: joined.invitation.id, role: joined.invitation.teamRole, invitedBy: joined.invitation.invitedBy },
  });
  return deps.startLogin(user);
}

/** A role change ends the member's sessions, so no token of theirs keeps the old role. */
export async function changeMemberRole(deps: TeamDeps, principal: Principal | null, userId: string, role: TeamRole, { address, log }: Caller): Promise<void> {
  const { db, sessions } = deps;
  const actor = await owner(db, principal);
  const changed = await db.transaction(async (tx) => {
    await lockTeam(tx, actor.clientId);
    const member = await findMember(tx, actor.clientId, userId);
    if (!member) throw new NotFoundError('Member not found');
    if (member.teamRole === role) return null;
    if (member.teamRole === 'owner' && (await countOwners(tx, actor.clientId)) <= 1) throw new ConflictError(LAST_OWNER_MESSAGE, 'role');
    await setTeamRole(tx, member.id, role);
    if (member.teamRole === 'owner') await orphanInvitations(tx, member.id);
    await sessions.revokeUser(member, tx);
    return member;
  });
  if (!changed) return;
  sessions.forgetUser(changed);
  await audit(db, log, {
    type: 'member.role-changed',
    clientId: actor.clientId,
    userId: actor.id,
    address,
    details: { memberId: changed.id, email: changed.email, from: changed.teamRole, to: role },
  });
}

/** Removes a member's account: their sessions end at once. */
export async function removeMember(deps: TeamDeps, principal: Principal | null, userId: string, { address, log }: Caller): Promise<void> {
  const { db, sessions } = deps;
  const actor = await owner(db, principal);
  const removed = await db.transaction(async (tx) => {
    await lockTeam(tx, actor.clientId);
    const member = await findMember(tx, actor.clientId, userId);
    if (!member) throw new NotFoundError('Member not found');
    if (member.teamRole === 'owner' && (await countOwners(tx, actor.clientId)) <= 1) throw new ConflictError(LAST_OWNER_MESSAGE);
    await sessions.revokeUser(member, tx);
    await orphanInvitations(tx, member.id);
    await deleteUser(tx, member.id);
    return member;
  });
  sessions.forgetUser(removed);
  await audit(db, log, {
    type: 'member.removed',
    clientId: actor.clientId,
    userId: actor.id,
    address,
    details: { memberId: removed.id, email: removed.email, role: removed.teamRole },
  });
}
