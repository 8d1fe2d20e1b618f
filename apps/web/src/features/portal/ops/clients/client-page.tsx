import { PortalPage } from '../../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function OpsClientPage() {
  return (
    <PortalPage id="ops-client-page-title" title="Client">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
