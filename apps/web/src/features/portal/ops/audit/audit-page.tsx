import type { OpsAuditEvent } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { failureMessage } from '@/lib/failure-message.ts';
import { formatDate, formatDay, parseDay } from '@/lib/format-date.ts';
import { AsyncState } from '../../components/async-state.tsx';
import { DataPager } from '../../components/data-pager.tsx';
import { DataTable, type DataColumn } from '../../components/data-table.tsx';
import { clientOptions, FilterSelect } from '../../components/filter-select.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import { useGetAuditLogQuery, useGetOpsClientsQuery } from '../ops-api.ts';
import '../ops.css';
import { AUDIT_FILTERS, auditQuery, detailLines, KNOWN_TYPES, type AuditFilter } from './audit-texts.ts';

type Draft = Record<AuditFilter, string>;

/** The form shows the days as dd/mm/yyyy (the one date format); the address keeps them as yyyy-mm-dd. */
const toDraft = (filters: Draft): Draft => ({ ...filters, from: formatDay(filters.from), to: formatDay(filters.to) });
const DAY_FORMAT = 'dd/mm/yyyy';

function Details({ event }: { event: OpsAuditEvent }) {
  const lines = detailLines(event.details);
  if (lines.length === 0) return '—';
  return (
    <dl className="ops-details">
      {lines.map(([key, value]) => (
        <div key={key}>
          <dt>{key}:</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function eventColumns(onFilter: (f: Partial<Draft>) => void): DataColumn<OpsAuditEvent>[] {
  return [
    { header: 'When', className: 'portal-nowrap', cell: (event) => formatDate(event.createdAt) },
    { header: 'What', cell: (event) => <span className="portal-mono">{event.type}</span> },
    {
      header: 'Who',
      cell: (event) => (
        <>
          {event.userId ? (
            <button type="button" className="ops-link" onClick={() => onFilter({ userId: event.userId ?? '' })} title="Show only this user">
              {event.userEmail ?? event.userId}
            </button>
          ) : (
            <span className="portal-muted">{event.details?.via === 'operator-token' ? 'Operator token' : '—'}</span>
          )}
          {event.clientName && <span className="ops-muted">{event.clientName}</span>}
        </>
      ),
    },
    {
      header: 'From',
      cell: (event) =>
        event.address ? (
          <button type="button" className="ops-link portal-mono" onClick={() => onFilter({ address: event.address ?? '' })} title="Show only this address">
            {event.address}
          </button>
        ) : (
          '—'
        ),
    },
    { header: 'Details', cell: (event) => <Details event={event} /> },
  ];
}

/** Who did what, when and from where: every login and every operator call, filtered and paged. */
export function OpsAuditPage() {
  const [params, setParams] = useSearchParams();
  const current = Object.fromEntries(AUDIT_FILTERS.map((k) => [k, params.get(k) ?? ''])) as Draft;
  const [draft, setDraft] = useState<Draft>(() => toDraft(current));
  const [dayError, setDayError] = useState<string | null>(null);
  const query = auditQuery(params);
  const log = useGetAuditLogQuery(query);
  const clients = useGetOpsClientsQuery();
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / log.data.pageSize)) : 1;
  const page = query.page ?? 1;

  const apply = (next: Draft, nextPage = 1) => {
    const entries = Object.entries({ ...next, page: nextPage > 1 ? String(nextPage) : '' }).filter(([, v]) => v.trim());
    setParams(Object.fromEntries(entries));
  };
  const onFilter = (f: Partial<Draft>) => {
    const next = { ...current, ...f };
    setDraft(toDraft(next));
    apply(next);
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const from = draft.from.trim() ? parseDay(draft.from) : '';
    const to = draft.to.trim() ? parseDay(draft.to) : '';
    if (from === null || to === null) {
      setDayError(`Write the ${from === null ? '“From”' : '“To”'} day as ${DAY_FORMAT}, e.g. 23/11/2026.`);
      return;
    }
    setDayError(null);
    apply({ ...draft, from, to });
  };
  const set = (key: AuditFilter) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));

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
            <FilterSelect id="ops-audit-client" label="Client" all="All clients" options={clientOptions(clients.data?.clients)}
              value={draft.clientId} onChange={set('clientId')} />
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
              <input id="ops-audit-from" inputMode="numeric" placeholder={DAY_FORMAT} value={draft.from} onChange={(e) => set('from')(e.target.value)} />
            </div>
            <div className="portal-field">
              <label htmlFor="ops-audit-to">To</label>
              <input id="ops-audit-to" inputMode="numeric" placeholder={DAY_FORMAT} value={draft.to} onChange={(e) => set('to')(e.target.value)} />
            </div>
          </div>
          <label className="ops-audit__views">
            <input type="checkbox" checked={draft.pageViews === 'show'} onChange={(e) => set('pageViews')(e.target.checked ? 'show' : '')} /> Show page views
            (ops.access: every console page an operator opened)
          </label>
          {dayError && (
            <p className="portal-alert portal-alert--error" role="alert">
              {dayError}
            </p>
          )}
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
                setDayError(null);
                apply(empty);
              }}
            >
              Clear
            </button>
          </div>
        </form>

        <AsyncState
          query={log}
          loading="Loading the audit log…"
          failed={failureMessage(log.error, 'The audit log could not be loaded. Please try again in a moment.')}
          empty={current.pageViews === 'show' ? 'No events match these filters.' : 'No events match these filters (page views are hidden).'}
          isEmpty={(data) => data.events.length === 0}
        >
          {(data) => (
            <>
              <DataTable
                className="ops-table ops-audit"
                caption={`Audit events, newest first: ${data.total} in all${current.pageViews === 'show' ? '' : ', page views hidden'}`}
                columns={eventColumns(onFilter)}
                rows={data.events}
                rowKey={(event) => event.id}
              />
              <DataPager className="ops-pager" page={page} pages={pages} onPage={(p) => apply(current, p)} extra={` (${data.total} events)`} />
            </>
          )}
        </AsyncState>
      </div>
    </PortalPage>
  );
}
