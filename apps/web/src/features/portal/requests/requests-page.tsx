import { PortalPage } from '../components/portal-page.tsx';
import { RequestForm } from './request-form.tsx';
import { RequestList } from './request-list.tsx';

/** Not in the spec: where a client asks for a new feature test, a manual test, or a free retest, and follows it. */
export function RequestsPage() {
  return (
    <PortalPage id="requests-title" title="Requests">
      <div className="portal-grid-requests">
        <RequestForm />
        <RequestList />
      </div>
    </PortalPage>
  );
}
