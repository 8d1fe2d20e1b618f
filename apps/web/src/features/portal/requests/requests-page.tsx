import { RequestForm } from './request-form.tsx';
import { RequestList } from './request-list.tsx';

/** Not in the spec: where a client asks for a new feature test, a manual test, or a free retest, and follows it. */
export function RequestsPage() {
  return (
    <section aria-labelledby="requests-title">
      <h1 id="requests-title" className="portal-page-title">
        Requests
      </h1>
      <div className="portal-grid-requests">
        <RequestForm />
        <RequestList />
      </div>
    </section>
  );
}
