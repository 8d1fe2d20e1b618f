import { clientScheduleListResponse, type ClientScheduleListResponse } from '@fullstop/contracts';
import { portalApi } from './portal-api.ts';

const api = portalApi.enhanceEndpoints({ addTagTypes: ['Schedules'] });

/** The client's own schedules (read-only): the Tests page lists them, the overview shows the next run. */
export const schedulesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMySchedules: build.query<ClientScheduleListResponse, void>({
      query: () => ({ url: '/schedules', schema: clientScheduleListResponse }),
      providesTags: ['Schedules'],
    }),
  }),
});

export const { useGetMySchedulesQuery } = schedulesApi;
