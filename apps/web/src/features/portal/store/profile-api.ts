import { apiPaths, clientProfile, type ClientProfile } from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';
import { portalApi } from './portal-api.ts';

/** The client profile, which every client page reads (website, API key, uploads). */
export const profileApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getProfile: build.query<ClientProfile, string>({
      query: (clientId) => ({ url: `${apiPaths.clientProfile}/${encodeURIComponent(clientId)}`, schema: clientProfile }),
      providesTags: ['Profile'],
      async onQueryStarted(_clientId, { queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          http.setApiKey(data.apiToken);
        } catch (error) {
          console.error('Could not load the client profile', error);
        }
      },
    }),
  }),
});

export const { useGetProfileQuery } = profileApi;
