import { paths } from '@fullstop/contracts';
import { Link, useParams } from 'react-router';
import { formatRunDate } from '@/lib/format-date.ts';
import { PortalPage } from '../../components/portal-page.tsx';
import { RunStatusBadge } from '../../components/run-status-badge.tsx';
import { queryString, useGetOpsClientQuery } from '../ops-api.ts';
import '../ops.css';
import { AlertsSection } from './alerts-section.tsx';
import { ClientApiKey } from './client-api-key.tsx';
import { ClientFlaky } from './client-flaky.tsx';
import { ClientOrigins } from './client-origins.tsx';
import { ClientSchedules } from './client-schedules.tsx';
import { ClientUsers } from './client-users.tsx';
import { RetentionSection } from './retention-section.tsx';
import { countText } from './health-texts.ts';

/** One client in the console: profile, health, users, origins, API key and secrets' names. */
export function OpsClientPage() {
  const clientId = useParams().clientId ?? '';
  const client = useGetOpsClientQuery(clientId, { skip: !clientId });
  const data = client.data;
  const runsLink = `${paths.opsRuns}${queryString({ clientId })}`;

  return (
    <PortalPage id="ops-client-page-title" title={data?.clientName ?? 'Client'}>
      <div className="ops-page">
        <Link to={paths.opsClients}>← All clients</Link>
        {client.isLoading ? (
          <p className="portal-muted" role="status">
            Loading the client…
          </p>
        ) : client.isError || !data ? (
          <p className="portal-alert portal-alert--error" role="alert">
            {client.error && 'status' in client.error && client.error.status === 404 ? 'There is no such client.' : 'The client could not be loaded. Please try again in a moment.'}
          </p>
        ) : (
          <>
            <section className="portal-card" aria-labelledby="ops-profile-title">
              <h2 id="ops-profile-title" className="portal-card__title">
                Profile and health
              </h2>
              <dl className="ops-facts">
                <div>
                  <dt>Website</dt>
                  <dd>{data.website}</dd>
                </div>
                <div>
                  <dt>Client since</dt>
                  <dd>{formatRunDate(data.createdAt)}</dd>
                </div>
                <div>
                  <dt>Suite version</dt>
                  <dd>{data.suiteVersion ?? 'None imported yet'}</dd>
                </div>
                <div>
                  <dt>Last run</dt>
                  <dd>
                    {data.health.lastRun ? (
                      <>
                        <RunStatusBadge status={data.health.lastRun.status} /> <span className="ops-muted">{formatRunDate(data.health.lastRun.finishedAt ?? data.health.lastRun.createdAt)}</span>
                      </>
                    ) : (
                      'No runs yet'
                    )}
                  </dd>
                </div>
                <div>
                  <dt>Failing tests</dt>
                  <dd>{countText(data.health.failingTests, 'failing test')}</dd>
                </div>
                <div>
                  <dt>Open bugs</dt>
                  <dd>{countText(data.health.openBugs, 'open bug')}</dd>
                </div>
                <div>
                  <dt>Requests waiting</dt>
                  <dd>{countText(data.health.requestsWaiting, 'request')}</dd>
                </div>
              </dl>
              <div className="portal-actions" style={{ marginTop: 16 }}>
                <Link className="btn btn--ghost portal-btn-sm" to={runsLink}>
                  See this client’s runs
                </Link>
              </div>
            </section>
            <div className="portal-grid-2">
              <section className="portal-card" aria-labelledby="ops-key-title">
                <h2 id="ops-key-title" className="portal-card__title">
                  API key
                </h2>
                <ClientApiKey clientId={data.id} masked={data.apiKeyMasked} />
              </section>
              <section className="portal-card" aria-labelledby="ops-secrets-title">
                <h2 id="ops-secrets-title" className="portal-card__title">
                  Login secrets
                </h2>
                {data.secretNames.length === 0 ? (
                  <p className="portal-muted">No secrets set.</p>
                ) : (
                  <ul className="ops-list">
                    {data.secretNames.map((name) => (
                      <li key={name} className="portal-mono">
                        {name}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </div>
            <div className="portal-grid-2">
              <ClientUsers clientId={data.id} users={data.users} />
              <ClientOrigins clientId={data.id} website={data.website} origins={data.origins} />
              <RetentionSection clientId={data.id} />
            </div>
            <ClientFlaky clientId={data.id} />
            <AlertsSection clientId={data.id} />
            <ClientSchedules clientId={data.id} />
          </>
        )}
      </div>
    </PortalPage>
  );
}
