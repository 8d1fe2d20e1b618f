import { PortalPage } from '../../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function OpsRunsPage() {
  return (
    <PortalPage id="ops-runs-page-title" title="Runs">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
