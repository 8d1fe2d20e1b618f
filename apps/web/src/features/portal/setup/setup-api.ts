import { apiPaths, generateApiKeyResponse, type GenerateApiKeyResponse } from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';
import { portalApi } from '../store/portal-api.ts';
import { profileApi } from '../store/profile-api.ts';

export const setupApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    generateApiKey: build.mutation<GenerateApiKeyResponse, string>({
      query: (clientId) => ({
        url: `${apiPaths.generateApiKey}/${encodeURIComponent(clientId)}`,
        method: 'POST',
        schema: generateApiKeyResponse,
      }),
      async onQueryStarted(clientId, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          http.setApiKey(data.apiKey);
          dispatch(
            profileApi.util.updateQueryData('getProfile', clientId, (profile) => {
              profile.apiToken = data.apiKey;
            }),
          );
        } catch (error) {
          console.error('Could not generate a new API key', error);
        }
      },
    }),
  }),
});

export const { useGenerateApiKeyMutation } = setupApi;
