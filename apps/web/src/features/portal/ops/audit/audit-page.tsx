import { PortalPage } from '../../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function OpsAuditPage() {
  return (
    <PortalPage id="ops-audit-page-title" title="Audit log">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
