import { formatDate } from '@/lib/format-date.ts';
import { FormError } from '../components/form-error.tsx';
import { useGetRequestsQuery } from './requests-api.ts';
import { KIND_LABELS, STATUS_LABELS } from './request-labels.ts';

export function RequestList() {
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
            <li key={request.id} className="portal-row portal-row--request">
              <div className="portal-row__main">
                <span className="portal-row__name">{request.title}</span>
                <span className="portal-row__meta">
                  {KIND_LABELS[request.kind]} · sent {formatDate(request.createdAt, '—')}
                </span>
                <p className="portal-row__details">{request.details}</p>
              </div>
              <span className={`portal-status portal-status--${request.status}`}>{STATUS_LABELS[request.status]}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
