import { FIRST_REPORT_HOURS, opsClientPath, paths, type OpsClientSummary } from '@fullstop/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncState } from '../../components/async-state.tsx';
import { DataTable, type DataColumn } from '../../components/data-table.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import { RunStatusBadge } from '../../components/run-status-badge.tsx';
import { useGetOpsClientsQuery } from '../ops-api.ts';
import '../ops.css';
import { signingText, sortByAttention, waitingForSuite } from './health-texts.ts';
import { NewClientForm } from './new-client-form.tsx';

function Count({ n }: { n: number }) {
  return <span className={`ops-num${n > 0 ? ' ops-num--bad' : ''}`}>{n}</span>;
}

const CLIENT_COLUMNS: DataColumn<OpsClientSummary>[] = [
  {
    header: 'Client',
    cell: (client) => (
      <>
        <Link to={opsClientPath(client.id)} className="ops-wrap">
          {client.clientName}
        </Link>
        <span className="ops-muted">{client.website}</span>
      </>
    ),
  },
  {
    header: 'Last run',
    cell: ({ health }) =>
      !health.hasSuite && !health.lastRun ? (
        <span className="ops-num--bad">No suite yet</span>
      ) : health.lastRun ? (
        <>
          <RunStatusBadge status={health.lastRun.status} />
          <span className="ops-muted">{formatDate(health.lastRun.finishedAt ?? health.lastRun.createdAt)}</span>
        </>
      ) : (
        <span className="portal-muted">No runs yet</span>
      ),
  },
  { header: 'Failing tests', cell: ({ health }) => <Count n={health.failingTests} /> },
  { header: 'Open bugs', cell: ({ health }) => <Count n={health.openBugs} /> },
  { header: 'Requests waiting', cell: ({ health }) => <Count n={health.requestsWaiting} /> },
];

/** The clients whose Tests page is still empty: how long since they signed, and a way to their suite. */
function WaitingForSuite({ clients }: { clients: readonly OpsClientSummary[] }) {
  const waiting = waitingForSuite(clients);
  if (waiting.length === 0) return null;
  return (
    <section className="portal-card ops-waiting" aria-labelledby="ops-waiting-title">
      <h2 id="ops-waiting-title" className="portal-card__title">
        Without a current suite ({waiting.length})
      </h2>
      <p className="portal-muted">They see no tests until a version is current; the site promises a start within {FIRST_REPORT_HOURS} hours of signing.</p>
      <ul className="ops-waiting__list">
        {waiting.map((client) => {
          const since = signingText(client.createdAt);
          return (
            <li key={client.id} className="ops-waiting__item">
              <Link to={opsClientPath(client.id)} className="ops-wrap">
                {client.clientName}
              </Link>
              <span className={since.overdue ? 'ops-num--bad' : 'ops-muted'}>{since.text}</span>
              <Link to={`${paths.opsSuites}?clientId=${encodeURIComponent(client.id)}`} className="btn btn--ghost portal-btn-sm" aria-label={`Suites of ${client.clientName}`}>
                Suites
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Every client with its health, the ones needing a look first; onboarding a new one. */
export function OpsClientsPage() {
  const clients = useGetOpsClientsQuery();
  const [creating, setCreating] = useState(false);

  return (
    <PortalPage id="ops-clients-page-title" title="Clients">
      <div className="ops-page">
        <div className="ops-head">
          <p className="portal-muted">Clients needing a look (no suite yet, failures, open bugs, waiting requests) come first.</p>
          {!creating && (
            <button type="button" className="btn btn--primary portal-btn-sm" onClick={() => setCreating(true)}>
              New client
            </button>
          )}
        </div>
        {creating && <NewClientForm onDone={() => setCreating(false)} />}
        <AsyncState
          query={clients}
          loading="Loading clients…"
          failed="The clients could not be loaded. Please try again in a moment."
          empty="No clients yet. Create the first one with “New client”."
          isEmpty={(data) => data.clients.length === 0}
        >
          {(data) => {
            const list = sortByAttention(data.clients);
            return (
              <>
                <WaitingForSuite clients={data.clients} />
                <DataTable
                  className="ops-table"
                  caption={`Clients and their health: ${list.length} in all`}
                  columns={CLIENT_COLUMNS}
                  rows={list}
                  rowKey={(client) => client.id}
                />
              </>
            );
          }}
        </AsyncState>
      </div>
    </PortalPage>
  );
}
