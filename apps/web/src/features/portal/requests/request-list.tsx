import { formatDate } from '@/lib/format-date.ts';
import { AsyncEmpty, AsyncLoading } from '../components/async-state.tsx';
import { Card } from '../components/card.tsx';
import { FormError } from '../components/form-error.tsx';
import { requestSummary } from '../components/requests/request-labels.ts';
import { RequestStatusBadge } from '../components/requests/request-status-badge.tsx';
import { useGetRequestsQuery } from './requests-api.ts';

export function RequestList({ onOpen }: { onOpen: (id: string) => void }) {
  const requests = useGetRequestsQuery();
  return (
    <Card id="request-list-title" title="Your requests">
      {requests.isLoading ? (
        <AsyncLoading>Loading requests…</AsyncLoading>
      ) : requests.isError ? (
        <FormError message="Your requests could not be loaded. Please try again later." />
      ) : !requests.data?.length ? (
        <AsyncEmpty>No requests yet.</AsyncEmpty>
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
    </Card>
  );
}
