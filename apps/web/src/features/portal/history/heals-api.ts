import { afterDeployReport, type AfterDeployReport, runHealsResponse, type RunHealsResponse } from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

/**
 * What keeps the tests up with the site, for the client's own runs (docs/healing.md): a run's healed cases, and what
 * followed a deploy's run (the re-crawl and what it proposes).
 */
export const healsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getRunHeals: build.query<RunHealsResponse, string>({
      query: (runId) => ({ url: `/test/runs/${encodeURIComponent(runId)}/heals`, schema: runHealsResponse }),
    }),
    getAfterDeploy: build.query<AfterDeployReport, string>({
      query: (runId) => ({ url: `/test/runs/${encodeURIComponent(runId)}/after-deploy`, schema: afterDeployReport }),
    }),
  }),
});

export const { useGetAfterDeployQuery, useGetRunHealsQuery } = healsApi;
