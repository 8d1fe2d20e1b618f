import {
  visualApproveAllResponse,
  visualDecisionResponse,
  visualReviewPaths,
  visualReviewResponse,
  type VisualApproveAllResponse,
  type VisualBugBody,
  type VisualDecisionResponse,
  type VisualReviewResponse,
} from '@fullstop/contracts';
import { portalApi } from './portal-api.ts';

type RunRef = { clientId: string; runId: string };
type ShotRef = RunRef & { candidateId: string };

const api = portalApi.enhanceEndpoints({ addTagTypes: ['VisualReview'] });

/**
 * A run's visual review: the client's read-only view (their own runs, bearer), and the console's, whose decisions
 * refresh it. The image links in an answer work for a few minutes: each visit asks again.
 */
export const visualApi = api.injectEndpoints({
  endpoints: (build) => ({
    getVisualReview: build.query<VisualReviewResponse, string>({
      query: (runId) => ({ url: visualReviewPaths.client(runId), schema: visualReviewResponse }),
    }),
    getOpsVisualReview: build.query<VisualReviewResponse, RunRef>({
      query: ({ clientId, runId }) => ({ url: visualReviewPaths.operator(clientId, runId), schema: visualReviewResponse }),
      providesTags: (_r, _e, { runId }) => [{ type: 'VisualReview', id: runId }],
    }),
    approveVisualShot: build.mutation<VisualDecisionResponse, ShotRef>({
      query: ({ clientId, runId, candidateId }) => ({ url: visualReviewPaths.approve(clientId, runId, candidateId), method: 'POST', schema: visualDecisionResponse }),
      invalidatesTags: (_r, _e, { runId }) => [{ type: 'VisualReview', id: runId }],
    }),
    approveAllVisualShots: build.mutation<VisualApproveAllResponse, RunRef>({
      query: ({ clientId, runId }) => ({ url: visualReviewPaths.approveAll(clientId, runId), method: 'POST', schema: visualApproveAllResponse }),
      invalidatesTags: (_r, _e, { runId }) => [{ type: 'VisualReview', id: runId }],
    }),
    rejectVisualShot: build.mutation<VisualDecisionResponse, ShotRef & { note?: string }>({
      query: ({ clientId, runId, candidateId, note }) => ({
        url: visualReviewPaths.reject(clientId, runId, candidateId),
        method: 'POST',
        json: note ? { note } : {},
        schema: visualDecisionResponse,
      }),
      invalidatesTags: (_r, _e, { runId }) => [{ type: 'VisualReview', id: runId }],
    }),
    openVisualBug: build.mutation<VisualDecisionResponse, ShotRef & Partial<VisualBugBody>>({
      query: ({ clientId, runId, candidateId, ...json }) => ({ url: visualReviewPaths.bug(clientId, runId, candidateId), method: 'POST', json, schema: visualDecisionResponse }),
      invalidatesTags: (_r, _e, { runId }) => [{ type: 'VisualReview', id: runId }],
    }),
  }),
});

export const {
  useGetVisualReviewQuery,
  useGetOpsVisualReviewQuery,
  useApproveVisualShotMutation,
  useApproveAllVisualShotsMutation,
  useRejectVisualShotMutation,
  useOpenVisualBugMutation,
} = visualApi;
