import { z } from 'zod';
import { forgotPasswordRequest, resetPasswordRequest, teamRole } from './auth.ts';
import { idString } from './common.ts';
import { text } from './text.ts';

// A client's team: its owners invite people by e-mail and give each a role. Owners manage the team, members use
// the whole portal, viewers only read (they cannot run tests, upload builds or generate API keys).

/** How long an invitation's link works. */
export const INVITATION_TTL_DAYS = 7;

/** The code of the 403 a viewer gets for what only members and owners may do. */
export const VIEWER_READ_ONLY = 'VIEWER_READ_ONLY';

export const teamMember = z.object({
  userId: z.string(),
  username: z.string(),
  email: z.string(),
  role: teamRole,
  /** When the user joined (their account was made). */
  joinedAt: z.string(),
});
export type TeamMember = z.infer<typeof teamMember>;

export const teamInvitation = z.object({
  id: z.string(),
  email: z.string(),
  role: teamRole,
  expiresAt: z.string(),
  /** The username of the owner who sent it; null once that user is gone. */
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
});
export type TeamInvitation = z.infer<typeof teamInvitation>;

/** GET /team: the members and the invitations not yet accepted or expired. */
export const teamResponse = z.object({
  /** The caller's own role (fresher than the one stored at login). */
  yourRole: teamRole,
  members: z.array(teamMember),
  invitations: z.array(teamInvitation),
});
export type TeamResponse = z.infer<typeof teamResponse>;

export const inviteRequest = z.object({
  email: forgotPasswordRequest.shape.email,
  role: teamRole,
});
export type InviteRequest = z.infer<typeof inviteRequest>;

export const invitationParams = z.object({ id: idString });
export const memberParams = z.object({ userId: idString });

export const changeRoleRequest = z.object({ role: teamRole });
export type ChangeRoleRequest = z.infer<typeof changeRoleRequest>;

const token = text('token').min(1, { error: 'token is required' }).max(200, { error: 'token is too long' });

export const invitationPreviewQuery = z.object({ token });

/** What the invitation page shows before the person sets a password. */
export const invitationPreview = z.object({
  clientName: z.string(),
  email: z.string(),
  role: teamRole,
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreview>;

/** Accepting makes the account and logs it in: the answer is the login's. */
export const acceptInvitationRequest = z.object({
  token,
  username: text('username').trim().min(1, { error: 'username is required' }).max(100, { error: 'username must be at most 100 characters' }),
  password: resetPasswordRequest.shape.password,
});
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequest>;

/** The team API's paths; the ones with an id are built with these helpers. */
export const teamApiPaths = {
  team: '/team',
  invitations: '/team/invitations',
  invitationPreview: '/team/invitations/preview',
  acceptInvitation: '/team/invitations/accept',
  changePassword: '/auth/change-password',
} as const;
export const invitationApiPath = (id: string) => `${teamApiPaths.invitations}/${encodeURIComponent(id)}`;
export const memberApiPath = (userId: string) => `/team/members/${encodeURIComponent(userId)}`;
