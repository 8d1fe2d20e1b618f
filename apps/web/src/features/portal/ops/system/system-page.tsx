import type { OpsSystem, SystemProcess } from '@fullstop/contracts';
import { formatDate } from '@/lib/format-date.ts';
import { PortalPage } from '../../components/portal-page.tsx';
import { failureMessage, useGetOpsSystemQuery } from '../ops-api.ts';
import '../ops.css';

/** The page refreshes itself this often (ms): about one heartbeat. */
const REFRESH_MS = 15_000;

const ROLE_LABEL: Record<SystemProcess['role'], string> = { api: 'API', worker: 'Worker' };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function testsOf(p: SystemProcess): string {
  if (p.workers === 0) return 'Queues only';
  return `${p.running} of ${p.workers} running`;
}

function Facts({ system }: { system: OpsSystem }) {
  const alive = system.processes.filter((p) => p.alive);
  const workers = alive.reduce((sum, p) => sum + p.workers, 0);
  return (
    <div className="portal-card">
      <dl className="ops-facts">
        <div>
          <dt>Database</dt>
          <dd>{system.database === 'embedded' ? 'Embedded (one process)' : 'PostgreSQL'}</dd>
        </div>
        <div>
          <dt>Artifacts</dt>
          <dd>
            {system.artifacts.kind === 's3' ? 'S3-compatible storage' : 'Data directory'}
            <span className="ops-muted portal-mono">{system.artifacts.location}</span>
          </dd>
        </div>
        <div>
          <dt>Processes running</dt>
          <dd>
            {alive.filter((p) => p.role === 'api').length} API, {plural(alive.filter((p) => p.role === 'worker').length, 'worker')}
          </dd>
        </div>
        <div>
          <dt>Tests at once</dt>
          <dd>{workers === 0 ? 'None: no process runs tests' : workers}</dd>
        </div>
        <div>
          <dt>Queued tests</dt>
          <dd className={system.queue.queued > 0 && workers === 0 ? 'ops-num ops-num--bad' : 'ops-num'}>{system.queue.queued}</dd>
        </div>
        <div>
          <dt>Running tests</dt>
          <dd className="ops-num">{system.queue.running}</dd>
        </div>
      </dl>
    </div>
  );
}

/** The installation at a glance: every API and worker process with its heartbeat, where artifacts go, the queue. */
export function OpsSystemPage() {
  const system = useGetOpsSystemQuery(undefined, { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true });
  const data = system.data;
  return (
    <PortalPage id="ops-system-page-title" title="System">
      <div className="ops-page">
        {system.isLoading ? (
          <p className="portal-muted" role="status">
            Loading the installation…
          </p>
        ) : system.isError || !data ? (
          <p className="portal-alert portal-alert--error" role="alert">
            {system.error ? failureMessage(system.error) : 'The installation could not be read. Please try again in a moment.'}
          </p>
        ) : (
          <>
            <Facts system={data} />
            {data.processes.length === 0 ? (
              <p className="portal-empty">No process has reported in yet.</p>
            ) : (
              <table className="ops-table">
                <caption className="visually-hidden">Server processes, running ones first</caption>
                <thead>
                  <tr>
                    <th scope="col">Process</th>
                    <th scope="col">Host</th>
                    <th scope="col">Tests</th>
                    <th scope="col">Started</th>
                    <th scope="col">Last heartbeat</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {data.processes.map((p) => (
                    <tr key={p.id}>
                      <td data-label="Process">
                        <div>
                          {ROLE_LABEL[p.role]}
                          <span className="ops-muted portal-mono">
                            pid {p.pid} · v{p.version}
                          </span>
                        </div>
                      </td>
                      <td data-label="Host">
                        <span className="portal-mono">{p.host}</span>
                      </td>
                      <td data-label="Tests">{testsOf(p)}</td>
                      <td data-label="Started" className="portal-nowrap">
                        {formatDate(p.startedAt)}
                      </td>
                      <td data-label="Last heartbeat" className="portal-nowrap">
                        {formatDate(p.lastSeenAt)}
                      </td>
                      <td data-label="Status">
                        <div>
                          {p.alive ? (
                            <span className="ops-state ops-state--up">Running</span>
                          ) : (
                            <span className="ops-state ops-state--down" title={`No heartbeat for more than ${data.aliveWithinSeconds} s`}>
                              Stopped
                            </span>
                          )}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <p className="portal-muted">
              Each process reports every 15 seconds; one silent for {data.aliveWithinSeconds} seconds is shown as stopped, and one that stops
              cleanly leaves the list.
            </p>
          </>
        )}
      </div>
    </PortalPage>
  );
}
