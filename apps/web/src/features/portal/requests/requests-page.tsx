import { useSearchParams } from 'react-router';
import { PortalPage } from '../components/portal-page.tsx';
import { RequestDetail } from './request-detail.tsx';
import { RequestForm } from './request-form.tsx';
import { RequestList } from './request-list.tsx';

/**
 * The client's line to the QA team: ask for a new test, a change to a test, a manual test, a free retest, or ask
 * a question, and follow each request's thread (`?id=` opens one within the page).
 */
export function RequestsPage() {
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  return (
    <PortalPage id="requests-title" title="Requests">
      {id ? (
        <RequestDetail key={id} id={id} onBack={() => setParams({})} />
      ) : (
        <div className="portal-grid-requests">
          <RequestForm />
          <RequestList onOpen={(next) => setParams({ id: next })} />
        </div>
      )}
    </PortalPage>
  );
}
