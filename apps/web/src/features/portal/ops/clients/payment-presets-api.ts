import {
  messageResponse,
  paymentPreset,
  paymentPresetsApiPaths,
  paymentPresetsResponse,
  type MessageResponse,
  type PaymentPreset,
  type PaymentPresetProvider,
  type PaymentPresetsResponse,
} from '@fullstop/contracts';
import { portalApi } from '../../store/portal-api.ts';

const api = portalApi.enhanceEndpoints({ addTagTypes: ['OpsPaymentPresets', 'OpsAudit'] });

type Switch = { clientId: string; provider: PaymentPresetProvider };

/** The console's calls on a client's payment presets; each switch is in the audit log. */
export const opsPaymentPresetsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOpsPaymentPresets: build.query<PaymentPresetsResponse, string>({
      query: (clientId) => ({ url: paymentPresetsApiPaths.list(clientId), schema: paymentPresetsResponse }),
      providesTags: (_r, _e, clientId) => [{ type: 'OpsPaymentPresets', id: clientId }],
    }),
    switchOnPaymentPreset: build.mutation<PaymentPreset, Switch>({
      query: ({ clientId, provider }) => ({ url: paymentPresetsApiPaths.one(clientId, provider), method: 'PUT', schema: paymentPreset }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsPaymentPresets', id: clientId }, 'OpsAudit'],
    }),
    switchOffPaymentPreset: build.mutation<MessageResponse, Switch>({
      query: ({ clientId, provider }) => ({ url: paymentPresetsApiPaths.one(clientId, provider), method: 'DELETE', schema: messageResponse }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsPaymentPresets', id: clientId }, 'OpsAudit'],
    }),
  }),
});

export const { useGetOpsPaymentPresetsQuery, useSwitchOnPaymentPresetMutation, useSwitchOffPaymentPresetMutation } = opsPaymentPresetsApi;
