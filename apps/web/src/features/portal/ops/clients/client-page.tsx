import { paths, type OpsClientSummary } from '@fullstop/contracts';
import { Link, useParams } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncFailed, AsyncLoading, isMissing } from '../../components/async-state.tsx';
import { Card } from '../../components/card.tsx';
import { DataFacts } from '../../components/data-facts.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import { RunStatusBadge } from '../../components/run-status-badge.tsx';
import { queryString, useGetOpsClientQuery } from '../ops-api.ts';
import '../ops.css';
import { AlertsSection } from './alerts-section.tsx';
import { ClientApiKey } from './client-api-key.tsx';
import { ClientFlaky } from './client-flaky.tsx';
import { ClientManualSettings } from './client-manual-settings.tsx';
import { ClientMobileDevices } from './client-mobile-devices.tsx';
import { ClientOrigins } from './client-origins.tsx';
import { ClientPaymentPresets } from './client-payment-presets.tsx';
import { ClientSchedules } from './client-schedules.tsx';
import { ClientStarterSuite } from './client-starter-suite.tsx';
import { ClientUsers } from './client-users.tsx';
import { RetentionSection } from './retention-section.tsx';
import { countText } from './health-texts.ts';

/** The client's last run: its verdict and when it ended. */
function LastRun({ run }: { run: OpsClientSummary['health']['lastRun'] }) {
  if (!run) return 'No runs yet';
  return (
    <>
      <RunStatusBadge status={run.status} /> <span className="ops-muted">{formatDate(run.finishedAt ?? run.createdAt)}</span>
    </>
  );
}

/** One client in the console: profile, health, users, origins, payment providers, API key and secrets' names. */
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
          <AsyncLoading>Loading the client…</AsyncLoading>
        ) : client.isError || !data ? (
          <AsyncFailed>{isMissing(client) ? 'There is no such client.' : 'The client could not be loaded. Please try again in a moment.'}</AsyncFailed>
        ) : (
          <>
            <Card id="ops-profile-title" title="Profile and health">
              <DataFacts
                className="ops-facts"
                facts={[
                  { term: 'Website', value: data.website },
                  { term: 'Client since', value: formatDate(data.createdAt) },
                  { term: 'Suite version', value: data.suiteVersion ?? 'None imported yet' },
                  { term: 'Last run', value: <LastRun run={data.health.lastRun} /> },
                  { term: 'Failing tests', value: countText(data.health.failingTests, 'failing test') },
                  { term: 'Open bugs', value: countText(data.health.openBugs, 'open bug') },
                  { term: 'Requests waiting', value: countText(data.health.requestsWaiting, 'request') },
                ]}
              />
              <div className="portal-actions" style={{ marginTop: 16 }}>
                <Link className="btn btn--ghost portal-btn-sm" to={runsLink}>
                  See this client’s runs
                </Link>
              </div>
            </Card>
            <ClientStarterSuite clientId={data.id} hasSuite={data.suiteVersion !== null} />
            <div className="portal-grid-2">
              <Card id="ops-key-title" title="API key">
                <ClientApiKey clientId={data.id} masked={data.apiKeyMasked} />
              </Card>
              <Card id="ops-secrets-title" title="Login secrets">
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
              </Card>
            </div>
            <div className="portal-grid-2">
              <ClientUsers clientId={data.id} users={data.users} />
              <ClientOrigins clientId={data.id} website={data.website} origins={data.origins} />
              <RetentionSection clientId={data.id} />
              <ClientManualSettings clientId={data.id} />
            </div>
            <ClientPaymentPresets clientId={data.id} />
            <ClientMobileDevices clientId={data.id} />
            <ClientFlaky clientId={data.id} />
            <AlertsSection clientId={data.id} />
            <ClientSchedules clientId={data.id} />
          </>
        )}
      </div>
    </PortalPage>
  );
}
