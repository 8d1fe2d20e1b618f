import { runHealsResponse, type RunHealsResponse } from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

/** A run's healed cases (docs/healing.md): the client's own runs only. */
export const healsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getRunHeals: build.query<RunHealsResponse, string>({
      query: (runId) => ({ url: `/test/runs/${encodeURIComponent(runId)}/heals`, schema: runHealsResponse }),
    }),
  }),
});

export const { useGetRunHealsQuery } = healsApi;
