import {
  acceptInvitationRequest,
  changeRoleRequest,
  invitationParams,
  invitationPreview,
  invitationPreviewQuery,
  inviteRequest,
  loginResponse,
  memberParams,
  messageResponse,
  teamInvitation,
  teamResponse,
} from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { noStore } from '../auth/index.ts';
import { authDepsOf, requestCaller, startLogin } from '../auth/index.ts';
import { acceptInvitation, cancelInvitation, changeMemberRole, inviteMember, previewInvitation, removeMember, type TeamDeps, viewTeam } from './service.ts';

/**
 * A client's team: any of its users sees who is in it; its owners invite people by e-mail, change roles and
 * remove members. The invitation's link is public: it shows whom it is for, and accepting it makes the account.
 */
export const teamRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = authDepsOf(app);
  const team: TeamDeps = { db: app.db, env: app.env, mailer: app.mailer, sessions: app.authSessions, startLogin: (user) => startLogin(auth, user) };
  const tags = ['team'];
  const security = [{ bearer: [] }];

  app.get(
    '/team',
    {
      config: { access: access.teamUsers },
      schema: {
        tags,
        security,
        summary: "The caller's team: its members with their roles and the invitations not yet accepted",
        response: { 200: teamResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => viewTeam(team, request.principal),
  );

  app.post(
    '/team/invitations',
    {
      config: { access: access.owners },
      schema: {
        tags,
        security,
        summary: 'Owners: invite a person by e-mail with a role; the mailed link works once, for 7 days',
        body: inviteRequest,
        response: { 201: teamInvitation, ...errorResponses(400, 401, 403, 409, 502) },
      },
    },
    async (request, reply) => reply.code(201).send(await inviteMember(team, request.principal, request.body.email, request.body.role, requestCaller(request))),
  );

  app.delete(
    '/team/invitations/:id',
    {
      config: { access: access.owners },
      schema: {
        tags,
        security,
        summary: 'Owners: cancel an invitation not yet accepted; its link stops working',
        params: invitationParams,
        response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await cancelInvitation(team, request.principal, request.params.id, requestCaller(request));
      return { message: 'Invitation cancelled' };
    },
  );

  app.get(
    '/team/invitations/preview',
    {
      config: { access: access.anyone },
      onSend: noStore,
      schema: {
        tags,
        summary: "What an invitation's link is for: the team, the e-mail and the role (410 once used or expired)",
        querystring: invitationPreviewQuery,
        response: { 200: invitationPreview, ...errorResponses(400, 404, 410) },
      },
    },
    async (request) => previewInvitation(team, request.query.token),
  );

  app.post(
    '/team/invitations/accept',
    {
      config: { access: access.anyone },
      onSend: noStore,
      schema: {
        tags,
        summary: "Accept an invitation: makes the account with this username and password and logs it in (the login's answer)",
        body: acceptInvitationRequest,
        response: { 200: loginResponse, ...errorResponses(400, 404, 409, 410, 429) },
      },
    },
    async (request) => acceptInvitation(team, request.body.token, request.body.username, request.body.password, requestCaller(request)),
  );

  app.patch(
    '/team/members/:userId',
    {
      config: { access: access.owners },
      schema: {
        tags,
        security,
        summary: "Owners: change a member's role; their sessions end, so the new role applies at once (409 for the last owner)",
        params: memberParams,
        body: changeRoleRequest,
        response: { 200: teamResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await changeMemberRole(team, request.principal, request.params.userId, request.body.role, requestCaller(request));
      return viewTeam(team, request.principal);
    },
  );

  app.delete(
    '/team/members/:userId',
    {
      config: { access: access.owners },
      schema: {
        tags,
        security,
        summary: "Owners: remove a member's account; their sessions end at once (409 for the last owner)",
        params: memberParams,
        response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await removeMember(team, request.principal, request.params.userId, requestCaller(request));
      return { message: 'Member removed' };
    },
  );
};
