import {
  manualWorkDetailResponse,
  manualWorkListResponse,
  messageResponse,
  type ManualStepRequest,
  type ManualSubmitRequest,
  type ManualWorkDetailResponse,
  type ManualWorkListResponse,
  type MessageResponse,
} from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';
import { portalApi, toFailure } from '../../store/portal-api.ts';

// The operator routes of manual work (issue 41). The contracts hold their messages (manual.ts); these paths are
// written here until manual.ts exports a table of them.
const enc = encodeURIComponent;
const manualPaths = {
  list: '/operator/manual',
  one: (id: string) => `/operator/manual/${enc(id)}`,
  step: (id: string, step: number) => `/operator/manual/${enc(id)}/steps/${step}`,
  evidence: (id: string, step: number, evidenceId: string) => `/operator/manual/${enc(id)}/steps/${step}/evidence/${enc(evidenceId)}`,
};

/** One step of one piece of work; `step` is counted from 1, as the routes count it. */
export interface StepRef {
  id: string;
  step: number;
}

const api = portalApi.enhanceEndpoints({ addTagTypes: ['OpsManual', 'OpsAudit'] });

/** An answer that is the whole piece of work again replaces the cached one, so the page shows what the server kept. */
async function keepDetail(id: string, dispatch: (action: unknown) => unknown, done: Promise<{ data: ManualWorkDetailResponse }>) {
  try {
    const { data } = await done;
    dispatch(manualApi.util.upsertQueryData('getManualWork', id, data));
  } catch {
    // The caller shows the failure; the cached piece of work stays as it was.
  }
}

/** The console's manual work: the queue, one piece of work, its claim, its steps and their evidence, its submission. */
export const manualApi = api.injectEndpoints({
  endpoints: (build) => ({
    getManualQueue: build.query<ManualWorkListResponse, void>({
      query: () => ({ url: manualPaths.list, schema: manualWorkListResponse }),
      providesTags: [{ type: 'OpsManual', id: 'LIST' }],
    }),
    getManualWork: build.query<ManualWorkDetailResponse, string>({
      query: (id) => ({ url: manualPaths.one(id), schema: manualWorkDetailResponse }),
      providesTags: (_r, _e, id) => [{ type: 'OpsManual', id }],
    }),
    claimManualWork: build.mutation<ManualWorkDetailResponse, string>({
      query: (id) => ({ url: `${manualPaths.one(id)}/claim`, method: 'POST', schema: manualWorkDetailResponse }),
      onQueryStarted: (id, { dispatch, queryFulfilled }) => keepDetail(id, dispatch, queryFulfilled),
      invalidatesTags: [{ type: 'OpsManual', id: 'LIST' }, 'OpsAudit'],
    }),
    releaseManualWork: build.mutation<MessageResponse, string>({
      query: (id) => ({ url: `${manualPaths.one(id)}/release`, method: 'POST', schema: messageResponse }),
      invalidatesTags: (_r, _e, id) => [{ type: 'OpsManual', id: 'LIST' }, { type: 'OpsManual', id }, 'OpsAudit'],
    }),
    saveManualStep: build.mutation<ManualWorkDetailResponse, StepRef & ManualStepRequest>({
      query: ({ id, step, verdict, note }) => ({ url: manualPaths.step(id, step), method: 'PUT', json: { verdict, note }, schema: manualWorkDetailResponse }),
      onQueryStarted: ({ id }, { dispatch, queryFulfilled }) => keepDetail(id, dispatch, queryFulfilled),
    }),
    /** Sends one file (multipart, field `file`) to a step's evidence. */
    addManualEvidence: build.mutation<ManualWorkDetailResponse, StepRef & { file: File }>({
      queryFn: async ({ id, step, file }) => {
        const form = new FormData();
        form.append('file', file, file.name);
        try {
          return { data: manualWorkDetailResponse.parse(await http.upload(`${manualPaths.step(id, step)}/evidence`, form)) };
        } catch (error) {
          return { error: toFailure(error) };
        }
      },
      onQueryStarted: ({ id }, { dispatch, queryFulfilled }) => keepDetail(id, dispatch, queryFulfilled),
    }),
    removeManualEvidence: build.mutation<ManualWorkDetailResponse, StepRef & { evidenceId: string }>({
      query: ({ id, step, evidenceId }) => ({ url: manualPaths.evidence(id, step, evidenceId), method: 'DELETE', schema: manualWorkDetailResponse }),
      onQueryStarted: ({ id }, { dispatch, queryFulfilled }) => keepDetail(id, dispatch, queryFulfilled),
    }),
    submitManualWork: build.mutation<MessageResponse, { id: string } & ManualSubmitRequest>({
      query: ({ id, used }) => ({ url: `${manualPaths.one(id)}/submit`, method: 'POST', json: { used }, schema: messageResponse }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'OpsManual', id: 'LIST' }, { type: 'OpsManual', id }, 'OpsAudit'],
    }),
  }),
});

export const {
  useGetManualQueueQuery,
  useGetManualWorkQuery,
  useClaimManualWorkMutation,
  useReleaseManualWorkMutation,
  useSaveManualStepMutation,
  useAddManualEvidenceMutation,
  useRemoveManualEvidenceMutation,
  useSubmitManualWorkMutation,
} = manualApi;

/** One piece of evidence's bytes, read with the operator's session (never a token in an address). */
export function fetchManualEvidence(ref: StepRef, evidenceId: string): Promise<Blob> {
  return http.request<Blob>(manualPaths.evidence(ref.id, ref.step, evidenceId), { responseType: 'blob' });
}
