import { PortalPage } from '../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function InvitePage() {
  return (
    <PortalPage id="invite-page-title" title="Join your team">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
