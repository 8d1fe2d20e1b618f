import { PortalPage } from '../components/portal-page.tsx';

// Placeholder: replaced by the feature that owns this page.
export function TeamPage() {
  return (
    <PortalPage id="team-page-title" title="Team">
      <p className="portal-empty">Not built yet.</p>
    </PortalPage>
  );
}
