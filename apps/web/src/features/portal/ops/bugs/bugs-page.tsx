import { PortalPage } from '../../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function OpsBugsPage() {
  return (
    <PortalPage id="ops-bugs-page-title" title="Bugs">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
