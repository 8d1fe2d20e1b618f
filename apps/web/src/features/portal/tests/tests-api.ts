import {
  apiPaths,
  manualCaseListResponse,
  runCancelResponse,
  runQueuedResponse,
  testGroups,
  type ManualCaseListResponse,
  type RunCancelResponse,
  type RunQueuedResponse,
  type TestGroups,
} from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

export const testsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getTests: build.query<TestGroups, string>({
      query: (apiKey) => ({ url: apiPaths.tests, auth: 'apiKey', apiKey, schema: testGroups }),
      providesTags: ['Tests'],
    }),
    /** The current suite's manual cases (issue 41): goal, steps and platforms, read once for the whole page. */
    getManualCases: build.query<ManualCaseListResponse, string>({
      query: (apiKey) => ({ url: '/test/manual-cases', auth: 'apiKey', apiKey, schema: manualCaseListResponse }),
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
    /** Cancels one test of a run (queued: it never starts; running: it is stopped), as the signed-in user. */
    cancelRunTest: build.mutation<RunCancelResponse, { runId: string; runTestId: string }>({
      query: ({ runId, runTestId }) => ({
        url: `/test/runs/${encodeURIComponent(runId)}/tests/${encodeURIComponent(runTestId)}/cancel`,
        method: 'POST',
        schema: runCancelResponse,
      }),
    }),
  }),
});

export const { useCancelRunTestMutation, useGetManualCasesQuery, useGetTestsQuery, useRunAllTestsMutation, useRunTestMutation } = testsApi;
