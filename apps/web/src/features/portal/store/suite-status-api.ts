import { apiPaths, suiteStatusResponse, type SuiteStatusResponse } from '@fullstop/contracts';
import { portalApi } from './portal-api.ts';

/** Where the client's suite stands (issue 39): the dashboard and the Tests page read it while no suite is current. */
export const suiteStatusApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getSuiteStatus: build.query<SuiteStatusResponse, void>({
      query: () => ({ url: apiPaths.suiteStatus, schema: suiteStatusResponse }),
      providesTags: ['Tests'],
    }),
  }),
});

export const { useGetSuiteStatusQuery } = suiteStatusApi;
