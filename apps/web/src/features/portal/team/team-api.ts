import {
  invitationApiPath,
  invitationPreview,
  memberApiPath,
  messageResponse,
  teamApiPaths,
  teamInvitation,
  teamResponse,
  type InvitationPreview,
  type InviteRequest,
  type TeamInvitation,
  type TeamResponse,
  type TeamRole,
} from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

export const teamApi = portalApi.enhanceEndpoints({ addTagTypes: ['Team'] }).injectEndpoints({
  endpoints: (build) => ({
    getTeam: build.query<TeamResponse, void>({
      query: () => ({ url: teamApiPaths.team, schema: teamResponse }),
      providesTags: ['Team'],
    }),
    invite: build.mutation<TeamInvitation, InviteRequest>({
      query: (body) => ({ url: teamApiPaths.invitations, method: 'POST', json: body, schema: teamInvitation }),
      invalidatesTags: ['Team'],
    }),
    cancelInvitation: build.mutation<unknown, string>({
      query: (id) => ({ url: invitationApiPath(id), method: 'DELETE', schema: messageResponse }),
      invalidatesTags: ['Team'],
    }),
    changeRole: build.mutation<TeamResponse, { userId: string; role: TeamRole }>({
      query: ({ userId, role }) => ({ url: memberApiPath(userId), method: 'PATCH', json: { role }, schema: teamResponse }),
      invalidatesTags: ['Team'],
    }),
    removeMember: build.mutation<unknown, string>({
      query: (userId) => ({ url: memberApiPath(userId), method: 'DELETE', schema: messageResponse }),
      invalidatesTags: ['Team'],
    }),
    previewInvitation: build.query<InvitationPreview, string>({
      query: (token) => ({ url: `${teamApiPaths.invitationPreview}?token=${encodeURIComponent(token)}`, auth: 'none', schema: invitationPreview }),
    }),
  }),
});

export const { useGetTeamQuery, useInviteMutation, useCancelInvitationMutation, useChangeRoleMutation, useRemoveMemberMutation, usePreviewInvitationQuery } = teamApi;
