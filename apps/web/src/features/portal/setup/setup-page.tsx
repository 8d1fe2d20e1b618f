import { AsyncEmpty, AsyncLoading } from '../components/async-state.tsx';
import { Card } from '../components/card.tsx';
import { PortalPage } from '../components/portal-page.tsx';
import { useClientProfile } from '../store/use-client-profile.ts';
import { AlertsPanel } from './alerts-panel.tsx';
import { ApiKeyPanel } from './api-key-panel.tsx';
import { AppUpload } from './app-upload.tsx';
import { CiPanel } from './ci-panel.tsx';
import { RetentionNote } from './retention-note.tsx';
import { TrackerPanel } from './tracker-panel.tsx';

export function SetupPage() {
  const profile = useClientProfile();
  return (
    <PortalPage id="setup-title" title="Setup">
      {profile.isLoading ? (
        <AsyncLoading>Loading your profile…</AsyncLoading>
      ) : !profile.data ? (
        <AsyncEmpty>Your client profile could not be loaded. Please try again later.</AsyncEmpty>
      ) : (
        <div className="portal-stack">
          <ApiKeyPanel profile={profile.data} />
          <CiPanel />
          <Card id="mobile-testing-title" title="Mobile Testing">
            <p className="portal-muted portal-card__lead">
              Accepted files: <span className="portal-nowrap">Android: .apk</span> · <span className="portal-nowrap">iOS: .ipa</span>
            </p>
            <div className="portal-grid-2">
              <AppUpload platform="android" profile={profile.data} />
              <AppUpload platform="ios" profile={profile.data} />
            </div>
            <RetentionNote clientId={profile.data.id} />
          </Card>
          <TrackerPanel />
          <AlertsPanel />
        </div>
      )}
    </PortalPage>
  );
}
