import { PortalPage } from '../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function AccountPage() {
  return (
    <PortalPage id="account-page-title" title="Your account">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
