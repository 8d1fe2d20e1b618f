import { PortalPage } from '../../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function OpsClientsPage() {
  return (
    <PortalPage id="ops-clients-page-title" title="Clients">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
