import { PortalPage } from '../../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function OpsRequestsPage() {
  return (
    <PortalPage id="ops-requests-page-title" title="Requests">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
