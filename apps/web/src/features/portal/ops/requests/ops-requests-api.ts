import {
  operatorClientRequestDetail,
  operatorClientRequestList,
  operatorRequestsApiPath,
  requestApiPath,
  type ClientRequestStatus,
  type OperatorClientRequest,
  type OperatorClientRequestDetail,
  type OperatorRequestsQuery,
} from '@fullstop/contracts';
import { portalApi } from '../../store/portal-api.ts';

/** The query string of the inbox's filters (empty ones left out). */
export function inboxQuery(filter: OperatorRequestsQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const opsRequestsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getOpsRequests: build.query<OperatorClientRequest[], OperatorRequestsQuery>({
      query: (filter) => ({ url: `${operatorRequestsApiPath}${inboxQuery(filter)}`, schema: operatorClientRequestList }),
      providesTags: ['Requests'],
    }),
    getOpsRequest: build.query<OperatorClientRequestDetail, string>({
      query: (id) => ({ url: requestApiPath(id, true), schema: operatorClientRequestDetail }),
      providesTags: ['Requests'],
    }),
    replyToOpsRequest: build.mutation<OperatorClientRequestDetail, { id: string; body: string }>({
      query: ({ id, body }) => ({ url: `${requestApiPath(id, true)}/messages`, method: 'POST', json: { body }, schema: operatorClientRequestDetail }),
      invalidatesTags: ['Requests'],
    }),
    setOpsRequestStatus: build.mutation<OperatorClientRequestDetail, { id: string; status: ClientRequestStatus }>({
      query: ({ id, status }) => ({ url: requestApiPath(id, true), method: 'PATCH', json: { status }, schema: operatorClientRequestDetail }),
      invalidatesTags: ['Requests'],
    }),
  }),
});

export const { useGetOpsRequestsQuery, useGetOpsRequestQuery, useReplyToOpsRequestMutation, useSetOpsRequestStatusMutation } = opsRequestsApi;
