import { PortalPage } from '../../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function OpsBugPage() {
  return (
    <PortalPage id="ops-bug-page-title" title="Bug">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
