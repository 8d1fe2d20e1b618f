import { healingDecisionResponse, healingProposalsResponse, type HealingDecisionResponse, type HealingProposalsResponse } from '@fullstop/contracts';
import { portalApi } from '../../store/portal-api.ts';

// The console's healing proposals of a client (docs/healing.md): the suite versions heals proposed, accepted or rejected.

const proposalsOf = (clientId: string) => `/operator/clients/${encodeURIComponent(clientId)}/healing/proposals`;
type ProposalRef = { clientId: string; proposalId: string };

export const healingApi = portalApi.enhanceEndpoints({ addTagTypes: ['HealingProposals', 'OpsSuites'] }).injectEndpoints({
  endpoints: (build) => ({
    getHealingProposals: build.query<HealingProposalsResponse, string>({
      query: (clientId) => ({ url: proposalsOf(clientId), schema: healingProposalsResponse }),
      providesTags: (_r, _e, clientId) => [{ type: 'HealingProposals', id: clientId }],
    }),
    /** Accepting makes the proposed version current: the Suites page's versions change too. */
    acceptHealingProposal: build.mutation<HealingDecisionResponse, ProposalRef>({
      query: ({ clientId, proposalId }) => ({ url: `${proposalsOf(clientId)}/${encodeURIComponent(proposalId)}/accept`, method: 'POST', schema: healingDecisionResponse }),
      invalidatesTags: (_r, _e, { clientId }) => [
        { type: 'HealingProposals', id: clientId },
        { type: 'OpsSuites', id: clientId },
      ],
    }),
    rejectHealingProposal: build.mutation<HealingDecisionResponse, ProposalRef & { note: string }>({
      query: ({ clientId, proposalId, note }) => ({ url: `${proposalsOf(clientId)}/${encodeURIComponent(proposalId)}/reject`, method: 'POST', json: { note }, schema: healingDecisionResponse }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'HealingProposals', id: clientId }],
    }),
  }),
});

export const { useGetHealingProposalsQuery, useAcceptHealingProposalMutation, useRejectHealingProposalMutation } = healingApi;
