import {
  connectIntegrationResponse,
  type ConnectIntegrationResponse,
  integrationDeliveryList,
  type IntegrationDeliveryList,
  type IntegrationKind,
  integrationList,
  type IntegrationList,
  integrationPaths,
  integrationSyncResponse,
  type IntegrationSyncResponse,
  messageResponse,
  type MessageResponse,
  testDeliveryResponse,
  type TestDeliveryResponse,
} from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

/** The client's tracker connections (Setup → Bug tracker); the panel refetches after each change. */
export const trackerApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getIntegrations: build.query<IntegrationList, void>({
      query: () => ({ url: integrationPaths.list, schema: integrationList }),
    }),
    getDeliveries: build.query<IntegrationDeliveryList, void>({
      query: () => ({ url: integrationPaths.deliveries, schema: integrationDeliveryList }),
    }),
    connectIntegration: build.mutation<ConnectIntegrationResponse, { kind: IntegrationKind; body: Record<string, unknown> }>({
      query: ({ kind, body }) => ({ url: integrationPaths.kind(kind), method: 'PUT', json: body, schema: connectIntegrationResponse }),
    }),
    disconnectIntegration: build.mutation<MessageResponse, IntegrationKind>({
      query: (kind) => ({ url: integrationPaths.kind(kind), method: 'DELETE', schema: messageResponse }),
    }),
    testIntegration: build.mutation<TestDeliveryResponse, IntegrationKind>({
      query: (kind) => ({ url: integrationPaths.test(kind), method: 'POST', schema: testDeliveryResponse }),
    }),
    syncIntegrations: build.mutation<IntegrationSyncResponse, void>({
      query: () => ({ url: integrationPaths.sync, method: 'POST', schema: integrationSyncResponse }),
    }),
  }),
});

export const {
  useGetIntegrationsQuery,
  useGetDeliveriesQuery,
  useConnectIntegrationMutation,
  useDisconnectIntegrationMutation,
  useTestIntegrationMutation,
  useSyncIntegrationsMutation,
} = trackerApi;
