import {
  apiPaths,
  clientRequest,
  clientRequestDetail,
  clientRequestList,
  requestApiPath,
  type ClientRequest,
  type ClientRequestDetail,
  type CreateClientRequest,
} from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

export const requestsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getRequests: build.query<ClientRequest[], void>({
      query: () => ({ url: apiPaths.requests, schema: clientRequestList }),
      providesTags: ['Requests'],
    }),
    getRequest: build.query<ClientRequestDetail, string>({
      query: (id) => ({ url: requestApiPath(id), schema: clientRequestDetail }),
      providesTags: ['Requests'],
    }),
    createRequest: build.mutation<ClientRequest, CreateClientRequest>({
      query: (body) => ({ url: apiPaths.requests, method: 'POST', json: body, schema: clientRequest }),
      invalidatesTags: ['Requests'],
    }),
    replyToRequest: build.mutation<ClientRequestDetail, { id: string; body: string }>({
      query: ({ id, body }) => ({ url: `${requestApiPath(id)}/messages`, method: 'POST', json: { body }, schema: clientRequestDetail }),
      invalidatesTags: ['Requests'],
    }),
  }),
});

export const { useGetRequestsQuery, useGetRequestQuery, useCreateRequestMutation, useReplyToRequestMutation } = requestsApi;
