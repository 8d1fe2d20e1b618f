import { apiPaths, runQueuedResponse, testGroups, type RunQueuedResponse, type TestGroups } from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

export const testsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getTests: build.query<TestGroups, string>({
      query: (apiKey) => ({ url: apiPaths.tests, auth: 'apiKey', apiKey, schema: testGroups }),
      providesTags: ['Tests'],
    }),
    runAllTests: build.mutation<RunQueuedResponse, string>({
      query: (apiKey) => ({ url: apiPaths.runAllTests, auth: 'apiKey', apiKey, schema: runQueuedResponse }),
    }),
    runTest: build.mutation<RunQueuedResponse, { testName: string; apiKey: string }>({
      query: ({ testName, apiKey }) => ({
        url: `${apiPaths.runTest}/${encodeURIComponent(testName)}`,
        auth: 'apiKey',
        apiKey,
        schema: runQueuedResponse,
      }),
    }),
  }),
});

export const { useGetTestsQuery, useRunAllTestsMutation, useRunTestMutation } = testsApi;
