import {
  apiPaths,
  bug,
  bugAttachment,
  bugList,
  bugPrefill,
  clientList,
  type Bug,
  type BugAction,
  type BugAttachment,
  type BugList,
  type BugPrefill,
  type BugSeverity,
  type BugStatus,
  type ClientList,
  type CreateBugBody,
  type UpdateBugBody,
} from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';
import { portalApi } from './portal-api.ts';

/** Who is looking: a client's people under /bugs, our QA team under /operator/bugs. Both share one bug view. */
export type BugSide = 'client' | 'operator';

export interface BugFilters {
  status?: BugStatus | undefined;
  severity?: BugSeverity | undefined;
  clientId?: string | undefined;
}

const base = (side: BugSide) => (side === 'client' ? apiPaths.bugs : apiPaths.operatorBugs);
/** The API address of one bug, for either side. */
export const bugApiPath = (side: BugSide, id: string) => `${base(side)}/${encodeURIComponent(id)}`;

function listUrl(side: BugSide, filters: BugFilters): string {
  const query = new URLSearchParams();
  if (filters.status) query.set('status', filters.status);
  if (filters.severity) query.set('severity', filters.severity);
  if (side === 'operator' && filters.clientId) query.set('clientId', filters.clientId);
  const q = query.toString();
  return q ? `${base(side)}?${q}` : base(side);
}

interface BugRef {
  side: BugSide;
  id: string;
}

/** Bug reports, both sides: the lists and one bug are tagged, so any answer or edit refreshes what shows it. */
export const bugsApi = portalApi.enhanceEndpoints({ addTagTypes: ['Bugs'] }).injectEndpoints({
  endpoints: (build) => ({
    getBugs: build.query<BugList, BugFilters & { side: BugSide }>({
      query: ({ side, ...filters }) => ({ url: listUrl(side, filters), schema: bugList }),
      providesTags: [{ type: 'Bugs', id: 'LIST' }],
    }),
    getBug: build.query<Bug, BugRef>({
      query: ({ side, id }) => ({ url: bugApiPath(side, id), schema: bug }),
      providesTags: (_result, _error, { id }) => [{ type: 'Bugs', id }],
    }),
    transitionBug: build.mutation<Bug, BugRef & { action: BugAction; reason?: string | undefined }>({
      query: ({ side, id, action, reason }) => ({
        url: `${bugApiPath(side, id)}/transition`,
        method: 'POST',
        json: reason ? { action, reason } : { action },
        schema: bug,
      }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Bugs', id }, { type: 'Bugs', id: 'LIST' }],
    }),
    setBugSeverity: build.mutation<Bug, { id: string; severity: BugSeverity }>({
      query: ({ id, severity }) => ({ url: `${bugApiPath('client', id)}/severity`, method: 'PATCH', json: { severity }, schema: bug }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Bugs', id }, { type: 'Bugs', id: 'LIST' }],
    }),
    commentOnBug: build.mutation<Bug, BugRef & { body: string }>({
      query: ({ side, id, body }) => ({ url: `${bugApiPath(side, id)}/comments`, method: 'POST', json: { body }, schema: bug }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Bugs', id }, { type: 'Bugs', id: 'LIST' }],
    }),
    // The console's own calls.
    getBugClients: build.query<ClientList, void>({
      query: () => ({ url: '/operator/clients', schema: clientList }),
    }),
    getBugPrefill: build.query<BugPrefill, { clientId: string; runTestId: string; ruleId?: string | undefined }>({
      query: ({ clientId, runTestId, ruleId }) => {
        const query = new URLSearchParams({ runTestId });
        if (ruleId) query.set('ruleId', ruleId);
        return { url: `/operator/clients/${encodeURIComponent(clientId)}/bugs/prefill?${query}`, schema: bugPrefill };
      },
    }),
    createBug: build.mutation<Bug, { clientId: string; body: CreateBugBody }>({
      query: ({ clientId, body }) => ({ url: `/operator/clients/${encodeURIComponent(clientId)}/bugs`, method: 'POST', json: body, schema: bug }),
      invalidatesTags: [{ type: 'Bugs', id: 'LIST' }],
    }),
    updateBug: build.mutation<Bug, { id: string; body: UpdateBugBody }>({
      query: ({ id, body }) => ({ url: bugApiPath('operator', id), method: 'PATCH', json: body, schema: bug }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Bugs', id }, { type: 'Bugs', id: 'LIST' }],
    }),
  }),
});

export const {
  useGetBugsQuery,
  useGetBugQuery,
  useTransitionBugMutation,
  useSetBugSeverityMutation,
  useCommentOnBugMutation,
  useGetBugClientsQuery,
  useGetBugPrefillQuery,
  useCreateBugMutation,
  useUpdateBugMutation,
} = bugsApi;

/** Sends one file to a bug (multipart, field `file`); the caller refreshes the bug with `bugChanged`. */
export async function uploadBugAttachment(side: BugSide, id: string, file: File, onProgress?: (fraction: number) => void): Promise<BugAttachment> {
  const form = new FormData();
  form.append('file', file, file.name);
  return bugAttachment.parse(await http.upload(`${bugApiPath(side, id)}/attachments`, form, { onProgress }));
}

/** One attachment's bytes, read with the session's bearer token (never a token in an address). */
export function fetchBugAttachment(side: BugSide, id: string, attachmentId: string): Promise<Blob> {
  return http.request<Blob>(`${bugApiPath(side, id)}/attachments/${encodeURIComponent(attachmentId)}`, { responseType: 'blob' });
}

/** Marks a bug (and the lists) stale after a change made outside RTK Query, such as an upload. */
export const bugChanged = (id: string) => bugsApi.util.invalidateTags([{ type: 'Bugs', id }, { type: 'Bugs', id: 'LIST' }]);
