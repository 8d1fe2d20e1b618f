import { clientRequestKind, clientRequestStatus, type ClientRequestStatus, type OperatorRequestsQuery } from '@fullstop/contracts';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncFailed, AsyncLoading, AsyncState } from '../../components/async-state.tsx';
import { FilterSelect, filterOptions } from '../../components/filter-select.tsx';
import { FormError } from '../../components/form-error.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import { KIND_LABELS, STATUS_LABELS, requestSummary } from '../../components/requests/request-labels.ts';
import { RequestStatusBadge } from '../../components/requests/request-status-badge.tsx';
import { RequestThread } from '../../components/requests/request-thread.tsx';
import { useGetOpsRequestQuery, useGetOpsRequestsQuery, useReplyToOpsRequestMutation, useSetOpsRequestStatusMutation } from './ops-requests-api.ts';

const STATUS_OPTIONS = filterOptions(clientRequestStatus.options, STATUS_LABELS);
const KIND_OPTIONS = filterOptions(clientRequestKind.options, KIND_LABELS);

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
        <AsyncFailed>{message}</AsyncFailed>
      )}
    </div>
  );
}

function InboxThread({ id, onClose }: { id: string; onClose: () => void }) {
  const request = useGetOpsRequestQuery(id);
  const [reply] = useReplyToOpsRequestMutation();
  if (request.isLoading) return <AsyncLoading>Loading the request…</AsyncLoading>;
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
    return [...byId].sort((x, y) => x[1].localeCompare(y[1])).map(([value, label]) => ({ value, label }));
  }, [everyone.data]);
  const open = (id: string | null) => setParams(id ? { id } : {});

  return (
    <PortalPage id="ops-requests-page-title" title="Requests">
      <div className={`request-inbox${selected ? ' request-inbox--open' : ''}`}>
        <section className="portal-card request-inbox__list" aria-label="Inbox">
          <div className="request-filters">
            <FilterSelect id="inbox-status" label="Status" all="All statuses" options={STATUS_OPTIONS}
              value={filter.status ?? ''} onChange={(v) => setFilter({ ...filter, status: v ? clientRequestStatus.parse(v) : undefined })} />
            <FilterSelect id="inbox-kind" label="Type" all="All types" options={KIND_OPTIONS}
              value={filter.kind ?? ''} onChange={(v) => setFilter({ ...filter, kind: v ? clientRequestKind.parse(v) : undefined })} />
            <FilterSelect id="inbox-client" label="Client" all="All clients" options={clients}
              value={filter.clientId ?? ''} onChange={(v) => setFilter({ ...filter, clientId: v || undefined })} />
          </div>
          <AsyncState
            query={requests}
            loading="Loading requests…"
            failed="The requests could not be loaded. Please try again later."
            empty="No requests match these filters."
            isEmpty={(data) => data.length === 0}
          >
            {(data) => (
              <ul className="portal-rows">
                {data.map((request) => (
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
          </AsyncState>
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
