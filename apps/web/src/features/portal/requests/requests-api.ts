import { apiPaths, clientRequest, clientRequestList, type ClientRequest, type CreateClientRequest } from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

export const requestsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getRequests: build.query<ClientRequest[], void>({
      query: () => ({ url: apiPaths.requests, schema: clientRequestList }),
      providesTags: ['Requests'],
    }),
    createRequest: build.mutation<ClientRequest, CreateClientRequest>({
      query: (body) => ({ url: apiPaths.requests, method: 'POST', json: body, schema: clientRequest }),
      invalidatesTags: ['Requests'],
    }),
  }),
});

export const { useGetRequestsQuery, useCreateRequestMutation } = requestsApi;
