import { clientRequestKind, clientRequestStatus, type ClientRequestStatus, type OperatorRequestsQuery } from '@fullstop/contracts';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { FormError } from '../../components/form-error.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import { KIND_LABELS, STATUS_LABELS, requestSummary } from '../../components/requests/request-labels.ts';
import { RequestStatusBadge } from '../../components/requests/request-status-badge.tsx';
import { RequestThread } from '../../components/requests/request-thread.tsx';
import { useGetOpsRequestQuery, useGetOpsRequestsQuery, useReplyToOpsRequestMutation, useSetOpsRequestStatusMutation } from './ops-requests-api.ts';

function StatusSelect({ id, status, allowed }: { id: string; status: ClientRequestStatus; allowed: ClientRequestStatus[] }) {
  const [setStatus, { isLoading, error }] = useSetOpsRequestStatusMutation();
  const message = error && 'message' in error ? String(error.message) : null;
  return (
    <div className="portal-field">
      <label htmlFor={`status-${id}`} className="visually-hidden">
        Status
      </label>
      <select
        id={`status-${id}`}
        value={status}
        disabled={isLoading || allowed.length === 0}
        onChange={(e) => void setStatus({ id, status: clientRequestStatus.parse(e.target.value) })}
      >
        <option value={status}>{STATUS_LABELS[status]}</option>
        {allowed.map((next) => (
          <option key={next} value={next}>
            Move to {STATUS_LABELS[next]}
          </option>
        ))}
      </select>
      {message && (
        <p className="portal-alert portal-alert--error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

function InboxThread({ id, onClose }: { id: string; onClose: () => void }) {
  const request = useGetOpsRequestQuery(id);
  const [reply] = useReplyToOpsRequestMutation();
  if (request.isLoading) return <p className="portal-muted" role="status">Loading the request…</p>;
  if (request.isError || !request.data) return <FormError message="The request could not be loaded." />;
  const detail = request.data;
  return (
    <RequestThread
      detail={detail}
      viewer="operator"
      header={
        <div className="request-thread__head">
          <p className="portal-muted" style={{ margin: 0, flex: '1 1 auto' }}>
            From <strong>{detail.clientName}</strong>
          </p>
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            Close
          </button>
        </div>
      }
      actions={<StatusSelect key={`${detail.id}-${detail.status}`} id={detail.id} status={detail.status} allowed={detail.allowedStatuses} />}
      onReply={(body) => reply({ id, body }).unwrap()}
      onFilesChanged={() => void request.refetch()}
    />
  );
}

/** The console's inbox: every client's requests, newest activity first, with each thread beside the list (`?id=`). */
export function OpsRequestsPage() {
  const [params, setParams] = useSearchParams();
  const selected = params.get('id');
  const [filter, setFilter] = useState<OperatorRequestsQuery>({});
  const requests = useGetOpsRequestsQuery(filter);
  const everyone = useGetOpsRequestsQuery({});
  const clients = useMemo(() => {
    const byId = new Map<string, string>();
    for (const r of everyone.data ?? []) byId.set(r.clientId, r.clientName);
    return [...byId].sort((x, y) => x[1].localeCompare(y[1]));
  }, [everyone.data]);
  const open = (id: string | null) => setParams(id ? { id } : {});

  return (
    <PortalPage id="ops-requests-page-title" title="Requests">
      <div className={`request-inbox${selected ? ' request-inbox--open' : ''}`}>
        <section className="portal-card request-inbox__list" aria-label="Inbox">
          <div className="request-filters">
            <div className="portal-field">
              <label htmlFor="inbox-status">Status</label>
              <select id="inbox-status" value={filter.status ?? ''} onChange={(e) => setFilter({ ...filter, status: e.target.value ? clientRequestStatus.parse(e.target.value) : undefined })}>
                <option value="">All statuses</option>
                {clientRequestStatus.options.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
            </div>
            <div className="portal-field">
              <label htmlFor="inbox-kind">Type</label>
              <select id="inbox-kind" value={filter.kind ?? ''} onChange={(e) => setFilter({ ...filter, kind: e.target.value ? clientRequestKind.parse(e.target.value) : undefined })}>
                <option value="">All types</option>
                {clientRequestKind.options.map((k) => (
                  <option key={k} value={k}>
                    {KIND_LABELS[k]}
                  </option>
                ))}
              </select>
            </div>
            <div className="portal-field">
              <label htmlFor="inbox-client">Client</label>
              <select id="inbox-client" value={filter.clientId ?? ''} onChange={(e) => setFilter({ ...filter, clientId: e.target.value || undefined })}>
                <option value="">All clients</option>
                {clients.map(([id, name]) => (
                  <option key={id} value={id}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {requests.isLoading ? (
            <p className="portal-muted" role="status">Loading requests…</p>
          ) : requests.isError ? (
            <FormError message="The requests could not be loaded. Please try again later." />
          ) : !requests.data?.length ? (
            <p className="portal-empty">No requests match these filters.</p>
          ) : (
            <ul className="portal-rows">
              {requests.data.map((request) => (
                <li key={request.id} className={`portal-row request-item${request.id === selected ? ' request-item--selected' : ''}`}>
                  <button type="button" className="request-item__open" onClick={() => open(request.id)} aria-current={request.id === selected ? 'true' : undefined}>
                    <span className="portal-row__name">{request.title}</span>
                    <span className="portal-row__meta">
                      {request.clientName} · {requestSummary(request, 'operator', (iso) => formatDate(iso, '—'))}
                    </span>
                    {request.unread && <span className="request-item__unread">Unread</span>}
                  </button>
                  <RequestStatusBadge status={request.status} />
                </li>
              ))}
            </ul>
          )}
        </section>
        {selected && (
          <section className="portal-card" aria-label="Request">
            <InboxThread key={selected} id={selected} onClose={() => open(null)} />
          </section>
        )}
      </div>
    </PortalPage>
  );
}
