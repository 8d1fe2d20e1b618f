import type { OpsSystem, SystemProcess } from '@fullstop/contracts';
import { formatDate } from '@/lib/format-date.ts';
import { failureMessage } from '@/lib/failure-message.ts';
import { AsyncEmpty, AsyncState } from '../../components/async-state.tsx';
import { DataFacts } from '../../components/data-facts.tsx';
import { DataTable, type DataColumn } from '../../components/data-table.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import { useGetOpsSystemQuery } from '../ops-api.ts';
import { RunnerIsolation } from './runner-isolation.tsx';
import { WaitingTests } from './waiting-tests.tsx';
import '../ops.css';
import './system.css';

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
      <DataFacts
        className="ops-facts"
        facts={[
          { term: 'Database', value: system.database === 'embedded' ? 'Embedded (one process)' : 'PostgreSQL' },
          {
            term: 'Artifacts',
            value: (
              <>
                {system.artifacts.kind === 's3' ? 'S3-compatible storage' : 'Data directory'}
                <span className="ops-muted portal-mono">{system.artifacts.location}</span>
              </>
            ),
          },
          { term: 'Processes running', value: `${alive.filter((p) => p.role === 'api').length} API, ${plural(alive.filter((p) => p.role === 'worker').length, 'worker')}` },
          { term: 'Tests at once', value: workers === 0 ? 'None: no process runs tests' : workers },
          { term: 'Queued tests', value: system.queue.queued, className: system.queue.queued > 0 && workers === 0 ? 'ops-num ops-num--bad' : 'ops-num' },
          { term: 'Running tests', value: system.queue.running, className: 'ops-num' },
        ]}
      />
    </div>
  );
}

function processColumns(aliveWithinSeconds: number): DataColumn<SystemProcess>[] {
  return [
    {
      header: 'Process',
      cell: (p) => (
        <div>
          {ROLE_LABEL[p.role]}
          <span className="ops-muted portal-mono">
            pid {p.pid} · v{p.version}
          </span>
        </div>
      ),
    },
    { header: 'Host', className: 'ops-system-host', cell: (p) => <span className="portal-mono">{p.host}</span> },
    // The dates may break after their day (never inside it), so the Isolation column's sentence has room beside them.
    { header: 'Tests', className: 'portal-nowrap', cell: testsOf },
    { header: 'Started', className: 'ops-system-date', cell: (p) => formatDate(p.startedAt) },
    { header: 'Last heartbeat', className: 'ops-system-date', cell: (p) => formatDate(p.lastSeenAt) },
    {
      header: 'Status',
      className: 'portal-nowrap',
      cell: (p) => (
        <div>
          {p.alive ? (
            <span className="ops-state ops-state--up">Running</span>
          ) : (
            <span className="ops-state ops-state--down" title={`No heartbeat for more than ${aliveWithinSeconds} s`}>
              Stopped
            </span>
          )}
        </div>
      ),
    },
    { header: 'Isolation', className: 'ops-isolation', cell: (p) => <RunnerIsolation process={p} /> },
  ];
}

/** The installation at a glance: every API and worker process with its heartbeat, where artifacts go, the queue. */
export function OpsSystemPage() {
  const system = useGetOpsSystemQuery(undefined, { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true });
  return (
    <PortalPage id="ops-system-page-title" title="System">
      <div className="ops-page">
        <AsyncState
          query={system}
          loading="Loading the installation…"
          failed={system.error ? failureMessage(system.error) : 'The installation could not be read. Please try again in a moment.'}
        >
          {(data) => (
            <>
              <Facts system={data} />
              <WaitingTests system={data} />
              <DataTable
                className="ops-table"
                caption="Server processes, running ones first"
                columns={processColumns(data.aliveWithinSeconds)}
                rows={data.processes}
                rowKey={(p) => p.id}
                empty={<AsyncEmpty>No process has reported in yet.</AsyncEmpty>}
              />
              <p className="portal-muted">
                Each process reports every 15 seconds; one silent for {data.aliveWithinSeconds} seconds is shown as stopped, and one that stops
                cleanly leaves the list.
              </p>
            </>
          )}
        </AsyncState>
      </div>
    </PortalPage>
  );
}
