import { PortalPage } from '../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function BugDetailPage() {
  return (
    <PortalPage id="bug-detail-page-title" title="Bug">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
