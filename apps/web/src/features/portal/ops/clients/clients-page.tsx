import { opsClientPath, type OpsClientSummary } from '@fullstop/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatRunDate } from '@/lib/format-date.ts';
import { PortalPage } from '../../components/portal-page.tsx';
import { RunStatusBadge } from '../../components/run-status-badge.tsx';
import { useGetOpsClientsQuery } from '../ops-api.ts';
import '../ops.css';
import { sortByAttention } from './health-texts.ts';
import { NewClientForm } from './new-client-form.tsx';

function Count({ n }: { n: number }) {
  return <span className={`ops-num${n > 0 ? ' ops-num--bad' : ''}`}>{n}</span>;
}

function ClientRow({ client }: { client: OpsClientSummary }) {
  const { health } = client;
  return (
    <tr>
      <td data-label="Client">
        <Link to={opsClientPath(client.id)} className="ops-wrap">
          {client.clientName}
        </Link>
        <span className="ops-muted">{client.website}</span>
      </td>
      <td data-label="Last run">
        {health.lastRun ? (
          <>
            <RunStatusBadge status={health.lastRun.status} />
            <span className="ops-muted">{formatRunDate(health.lastRun.finishedAt ?? health.lastRun.createdAt)}</span>
          </>
        ) : (
          <span className="portal-muted">No runs yet</span>
        )}
      </td>
      <td data-label="Failing tests">
        <Count n={health.failingTests} />
      </td>
      <td data-label="Open bugs">
        <Count n={health.openBugs} />
      </td>
      <td data-label="Requests waiting">
        <Count n={health.requestsWaiting} />
      </td>
    </tr>
  );
}

/** Every client with its health, the ones needing a look first; onboarding a new one. */
export function OpsClientsPage() {
  const clients = useGetOpsClientsQuery();
  const [creating, setCreating] = useState(false);
  const list = clients.data ? sortByAttention(clients.data.clients) : [];

  return (
    <PortalPage id="ops-clients-page-title" title="Clients">
      <div className="ops-page">
        <div className="ops-head">
          <p className="portal-muted">Clients needing a look (failures, open bugs, waiting requests) come first.</p>
          {!creating && (
            <button type="button" className="btn btn--primary portal-btn-sm" onClick={() => setCreating(true)}>
              New client
            </button>
          )}
        </div>
        {creating && <NewClientForm onDone={() => setCreating(false)} />}
        {clients.isLoading ? (
          <p className="portal-muted" role="status">
            Loading clients…
          </p>
        ) : clients.isError ? (
          <p className="portal-alert portal-alert--error" role="alert">
            The clients could not be loaded. Please try again in a moment.
          </p>
        ) : list.length === 0 ? (
          <p className="portal-empty">No clients yet. Create the first one with “New client”.</p>
        ) : (
          <table className="ops-table">
            <caption className="visually-hidden">Clients and their health: {list.length} in all</caption>
            <thead>
              <tr>
                <th scope="col">Client</th>
                <th scope="col">Last run</th>
                <th scope="col">Failing tests</th>
                <th scope="col">Open bugs</th>
                <th scope="col">Requests waiting</th>
              </tr>
            </thead>
            <tbody>
              {list.map((client) => (
                <ClientRow key={client.id} client={client} />
              ))}
            </tbody>
          </table>
        )}
      </div>
    </PortalPage>
  );
}
