import {
  alertChannel,
  type AlertChannel,
  type AlertChannelList,
  alertChannelList,
  type AlertChannelResponse,
  alertChannelResponse,
  type AlertDeliveryList,
  alertDeliveryList,
  alertPaths,
  type AlertTestResponse,
  alertTestResponse,
  type CreateAlertChannelBody,
  type MessageResponse,
  messageResponse,
  type UpdateAlertChannelBody,
} from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

/** The client's alert channels and their deliveries (Setup → Alerts); the panel refetches after each change. */
export const alertsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getAlertChannels: build.query<AlertChannelList, void>({
      query: () => ({ url: alertPaths.channels, schema: alertChannelList }),
    }),
    getAlertDeliveries: build.query<AlertDeliveryList, void>({
      query: () => ({ url: alertPaths.deliveries, schema: alertDeliveryList }),
    }),
    createAlertChannel: build.mutation<AlertChannelResponse, CreateAlertChannelBody>({
      query: (body) => ({ url: alertPaths.channels, method: 'POST', json: body, schema: alertChannelResponse }),
    }),
    updateAlertChannel: build.mutation<AlertChannelResponse, { id: string; body: UpdateAlertChannelBody }>({
      query: ({ id, body }) => ({ url: alertPaths.channel(id), method: 'PATCH', json: body, schema: alertChannelResponse }),
    }),
    deleteAlertChannel: build.mutation<MessageResponse, string>({
      query: (id) => ({ url: alertPaths.channel(id), method: 'DELETE', schema: messageResponse }),
    }),
    testAlertChannel: build.mutation<AlertTestResponse, string>({
      query: (id) => ({ url: alertPaths.test(id), method: 'POST', schema: alertTestResponse }),
    }),
    resendAlertConfirmation: build.mutation<AlertChannel, string>({
      query: (id) => ({ url: alertPaths.confirmation(id), method: 'POST', schema: alertChannel }),
    }),
    /** The mailed link's page: no login. */
    confirmAlertChannel: build.mutation<MessageResponse, string>({
      query: (token) => ({ url: alertPaths.confirm, method: 'POST', json: { token }, auth: 'none', schema: messageResponse }),
    }),
  }),
});

export const {
  useGetAlertChannelsQuery,
  useGetAlertDeliveriesQuery,
  useCreateAlertChannelMutation,
  useUpdateAlertChannelMutation,
  useDeleteAlertChannelMutation,
  useTestAlertChannelMutation,
  useResendAlertConfirmationMutation,
  useConfirmAlertChannelMutation,
} = alertsApi;
