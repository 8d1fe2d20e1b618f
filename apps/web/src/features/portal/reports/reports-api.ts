import { apiPaths, reportGroups, type ReportGroups } from '@fullstop/contracts';
import { HttpError, http } from '@/lib/http-client.ts';
import { portalApi } from '../store/portal-api.ts';

export const reportsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getReports: build.query<ReportGroups, string>({
      // Spec: a 404 or any other failure means "no reports", never an error on the page.
      async queryFn(apiKey) {
        try {
          return { data: reportGroups.parse(await http.request(apiPaths.reports, { auth: 'apiKey', apiKey })) };
        } catch (error) {
          // 404 is the server's way of saying "no reports yet": expected, so not logged as an error.
          if (!(error instanceof HttpError && error.status === 404)) console.error('Could not load reports', error);
          return { data: {} };
        }
      },
      providesTags: ['Reports'],
    }),
  }),
});

export const { useGetReportsQuery } = reportsApi;
