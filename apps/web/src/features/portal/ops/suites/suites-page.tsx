import { PortalPage } from '../../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function OpsSuitesPage() {
  return (
    <PortalPage id="ops-suites-page-title" title="Suites">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
