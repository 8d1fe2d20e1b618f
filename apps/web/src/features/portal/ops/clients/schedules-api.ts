import {
  messageResponse,
  operatorSchedule,
  operatorScheduleListResponse,
  type CreateScheduleRequest,
  type MessageResponse,
  type OperatorSchedule,
  type OperatorScheduleListResponse,
  type UpdateScheduleRequest,
} from '@fullstop/contracts';
import { portalApi } from '../../store/portal-api.ts';

const api = portalApi.enhanceEndpoints({ addTagTypes: ['OpsSchedules'] });
const base = (clientId: string) => `/operator/clients/${encodeURIComponent(clientId)}/schedules`;

/** The console's calls on a client's schedules. */
export const opsSchedulesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOpsSchedules: build.query<OperatorScheduleListResponse, string>({
      query: (clientId) => ({ url: base(clientId), schema: operatorScheduleListResponse }),
      providesTags: (_r, _e, clientId) => [{ type: 'OpsSchedules', id: clientId }],
    }),
    addOpsSchedule: build.mutation<OperatorSchedule, { clientId: string; body: CreateScheduleRequest }>({
      query: ({ clientId, body }) => ({ url: base(clientId), method: 'POST', json: body, schema: operatorSchedule }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsSchedules', id: clientId }],
    }),
    changeOpsSchedule: build.mutation<OperatorSchedule, { clientId: string; scheduleId: string; body: UpdateScheduleRequest }>({
      query: ({ clientId, scheduleId, body }) => ({ url: `${base(clientId)}/${encodeURIComponent(scheduleId)}`, method: 'PATCH', json: body, schema: operatorSchedule }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsSchedules', id: clientId }],
    }),
    deleteOpsSchedule: build.mutation<MessageResponse, { clientId: string; scheduleId: string }>({
      query: ({ clientId, scheduleId }) => ({ url: `${base(clientId)}/${encodeURIComponent(scheduleId)}`, method: 'DELETE', schema: messageResponse }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsSchedules', id: clientId }],
    }),
  }),
});

export const { useGetOpsSchedulesQuery, useAddOpsScheduleMutation, useChangeOpsScheduleMutation, useDeleteOpsScheduleMutation } = opsSchedulesApi;
