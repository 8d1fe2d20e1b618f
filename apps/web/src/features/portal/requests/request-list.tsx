import { formatDate } from '@/lib/format-date.ts';
import { FormError } from '../components/form-error.tsx';
import { requestSummary } from '../components/requests/request-labels.ts';
import { RequestStatusBadge } from '../components/requests/request-status-badge.tsx';
import { useGetRequestsQuery } from './requests-api.ts';

export function RequestList({ onOpen }: { onOpen: (id: string) => void }) {
  const requests = useGetRequestsQuery();
  return (
    <section className="portal-card" aria-labelledby="request-list-title">
      <h2 id="request-list-title" className="portal-card__title">
        Your requests
      </h2>
      {requests.isLoading ? (
        <p className="portal-muted" role="status">Loading requests…</p>
      ) : requests.isError ? (
        <FormError message="Your requests could not be loaded. Please try again later." />
      ) : !requests.data?.length ? (
        <p className="portal-empty">No requests yet.</p>
      ) : (
        <ul className="portal-rows">
          {requests.data.map((request) => (
            <li key={request.id} className="portal-row portal-row--request request-item">
              <button type="button" className="request-item__open" onClick={() => onOpen(request.id)}>
                <span className="portal-row__name">{request.title}</span>
                <span className="portal-row__meta">{requestSummary(request, 'client', (iso) => formatDate(iso, '—'))}</span>
                {request.unread && <span className="request-item__unread">New reply from the QA team</span>}
              </button>
              <RequestStatusBadge status={request.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
