import type { OpsAuditEvent } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { PortalPage } from '../../components/portal-page.tsx';
import { useGetAuditLogQuery, useGetOpsClientsQuery } from '../ops-api.ts';
import '../ops.css';
import { AUDIT_FILTERS, auditQuery, detailLines, KNOWN_TYPES, type AuditFilter } from './audit-texts.ts';

type Draft = Record<AuditFilter, string>;

function EventRow({ event, onFilter }: { event: OpsAuditEvent; onFilter: (f: Partial<Draft>) => void }) {
  const lines = detailLines(event.details);
  return (
    <tr>
      <td data-label="When" className="portal-nowrap">
        {formatDate(event.createdAt)}
      </td>
      <td data-label="What">
        <span className="portal-mono">{event.type}</span>
      </td>
      <td data-label="Who">
        {event.userId ? (
          <button type="button" className="ops-link" onClick={() => onFilter({ userId: event.userId ?? '' })} title="Show only this user">
            {event.userEmail ?? event.userId}
          </button>
        ) : (
          <span className="portal-muted">{event.details?.via === 'operator-token' ? 'Operator token' : '—'}</span>
        )}
        {event.clientName && <span className="ops-muted">{event.clientName}</span>}
      </td>
      <td data-label="From">
        {event.address ? (
          <button type="button" className="ops-link portal-mono" onClick={() => onFilter({ address: event.address ?? '' })} title="Show only this address">
            {event.address}
          </button>
        ) : (
          '—'
        )}
      </td>
      <td data-label="Details">
        {lines.length === 0 ? (
          '—'
        ) : (
          <dl className="ops-details">
            {lines.map(([key, value]) => (
              <div key={key}>
                <dt>{key}:</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </td>
    </tr>
  );
}

/** Who did what, when and from where: every login and every operator call, filtered and paged. */
export function OpsAuditPage() {
  const [params, setParams] = useSearchParams();
  const current = Object.fromEntries(AUDIT_FILTERS.map((k) => [k, params.get(k) ?? ''])) as Draft;
  const [draft, setDraft] = useState<Draft>(current);
  const query = auditQuery(params);
  const log = useGetAuditLogQuery(query);
  const clients = useGetOpsClientsQuery();
  const data = log.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const page = query.page ?? 1;

  const apply = (next: Draft, nextPage = 1) => {
    const entries = Object.entries({ ...next, page: nextPage > 1 ? String(nextPage) : '' }).filter(([, v]) => v.trim());
    setParams(Object.fromEntries(entries));
  };
  const onFilter = (f: Partial<Draft>) => {
    const next = { ...current, ...f };
    setDraft(next);
    apply(next);
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    apply(draft);
  };
  const set = (key: AuditFilter) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const failure = log.error && 'message' in log.error ? log.error.message : null;

  return (
    <PortalPage id="ops-audit-page-title" title="Audit log">
      <div className="ops-page">
        <form className="portal-card portal-form" aria-label="Filter the audit log" onSubmit={onSubmit}>
          <div className="ops-filters">
            <div className="portal-field">
              <label htmlFor="ops-audit-type">Type</label>
              <input id="ops-audit-type" list="ops-audit-types" placeholder="e.g. login or ops.access" value={draft.type} onChange={(e) => set('type')(e.target.value)} />
              <datalist id="ops-audit-types">
                {KNOWN_TYPES.map((t) => (
                  <option key={t} value={t} />
                ))}
              </datalist>
            </div>
            <div className="portal-field">
              <label htmlFor="ops-audit-client">Client</label>
              <select id="ops-audit-client" value={draft.clientId} onChange={(e) => set('clientId')(e.target.value)}>
                <option value="">All clients</option>
                {(clients.data?.clients ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.clientName}
                  </option>
                ))}
              </select>
            </div>
            <div className="portal-field">
              <label htmlFor="ops-audit-user">User id</label>
              <input id="ops-audit-user" value={draft.userId} onChange={(e) => set('userId')(e.target.value)} />
            </div>
            <div className="portal-field">
              <label htmlFor="ops-audit-address">Address</label>
              <input id="ops-audit-address" placeholder="e.g. 203.0.113.7" value={draft.address} onChange={(e) => set('address')(e.target.value)} />
            </div>
            <div className="portal-field">
              <label htmlFor="ops-audit-from">From</label>
              <input id="ops-audit-from" type="date" value={draft.from} onChange={(e) => set('from')(e.target.value)} />
            </div>
            <div className="portal-field">
              <label htmlFor="ops-audit-to">To</label>
              <input id="ops-audit-to" type="date" value={draft.to} onChange={(e) => set('to')(e.target.value)} />
            </div>
          </div>
          <div className="portal-actions">
            <button type="submit" className="btn btn--primary portal-btn-sm">
              Apply filters
            </button>
            <button
              type="button"
              className="btn btn--ghost portal-btn-sm"
              onClick={() => {
                const empty = Object.fromEntries(AUDIT_FILTERS.map((k) => [k, ''])) as Draft;
                setDraft(empty);
                apply(empty);
              }}
            >
              Clear
            </button>
          </div>
        </form>

        {log.isLoading ? (
          <p className="portal-muted" role="status">
            Loading the audit log…
          </p>
        ) : log.isError || !data ? (
          <p className="portal-alert portal-alert--error" role="alert">
            {failure ?? 'The audit log could not be loaded. Please try again in a moment.'}
          </p>
        ) : data.events.length === 0 ? (
          <p className="portal-empty">No events match these filters.</p>
        ) : (
          <>
            <table className="ops-table ops-audit">
              <caption className="visually-hidden">Audit events, newest first: {data.total} in all</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">What</th>
                  <th scope="col">Who</th>
                  <th scope="col">From</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {data.events.map((event) => (
                  <EventRow key={event.id} event={event} onFilter={onFilter} />
                ))}
              </tbody>
            </table>
            <nav className="ops-pager" aria-label="Pages">
              <button type="button" className="btn btn--ghost portal-btn-sm" disabled={page <= 1} onClick={() => apply(current, page - 1)}>
                Previous
              </button>
              <span aria-live="polite">
                Page {page} of {pages} ({data.total} events)
              </span>
              <button type="button" className="btn btn--ghost portal-btn-sm" disabled={page >= pages} onClick={() => apply(current, page + 1)}>
                Next
              </button>
            </nav>
          </>
        )}
      </div>
    </PortalPage>
  );
}
