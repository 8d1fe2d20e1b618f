import { retentionApiPaths, retentionResponse, type RetentionResponse } from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

const api = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getRetention: build.query<RetentionResponse, string>({
      query: (clientId) => ({ url: retentionApiPaths.client(clientId), schema: retentionResponse }),
    }),
  }),
});

/** How long the client's runs and builds are kept, and what stays: one line under the builds. */
export function RetentionNote({ clientId }: { clientId: string }) {
  const { data } = api.useGetRetentionQuery(clientId);
  if (!data) return null;
  return (
    <p className="portal-muted portal-field__hint" data-testid="retention-note">
      Runs and builds are deleted after {data.days} days ({data.isDefault ? 'our standard retention' : 'your agreed retention'}). Each test’s
      latest run and the build in use are kept; you can delete a build at any time.
    </p>
  );
}
