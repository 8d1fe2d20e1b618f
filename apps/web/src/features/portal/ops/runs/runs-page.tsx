import { opsClientPath, runScopeLabel, runStatus, visualReviewPaths, type OpsRun } from '@fullstop/contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncState } from '../../components/async-state.tsx';
import { DataPager } from '../../components/data-pager.tsx';
import { clientOptions, FilterSelect, filterOptions } from '../../components/filter-select.tsx';
import { Popup } from '../../components/popup.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import { runTotalsWords } from '../../components/run-totals.ts';
import { RUN_STATUS_WORDS, RunStatusBadge } from '../../components/run-status-badge.tsx';
import { useCancelOpsRunMutation, useGetOpsClientsQuery, useGetOpsRunsQuery } from '../ops-api.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { describeError } from '@/lib/http-client.ts';
import '../ops.css';
import { FailingTest, type Report } from './failing-test.tsx';
import { feedFilters } from './triage-links.ts';

const STATUS_OPTIONS = filterOptions(runStatus.options, RUN_STATUS_WORDS);

const TRIGGERS: Record<OpsRun['trigger'], string> = { portal: 'Portal', api: 'API', ci: 'CI', schedule: 'Schedule', operator: 'Operator' };

/** Cancel of a run that still waits or runs, after a question; the answer goes to the page's message. */
function CancelRun({ run, report }: { run: OpsRun; report: Report }) {
  const [cancel, state] = useCancelOpsRunMutation();
  const confirm = useConfirm();
  const ask = () =>
    confirm.ask({
      title: `Cancel ${run.clientName}’s run?`,
      message: 'Its queued tests will not start and its running tests are stopped now; what they recorded so far is kept. The client sees it as cancelled.',
      confirmText: 'Cancel the run',
      onConfirm: () => {
        cancel({ clientId: run.clientId, runId: run.runId })
          .unwrap()
          .then((res) => report(res.message), (error: unknown) => report(`Could not cancel the run: ${describeError(error)}`));
      },
    });
  return (
    <div className="ops-actions">
      <button type="button" className="btn btn--ghost portal-btn-sm" onClick={ask} disabled={state.isLoading} aria-label={`Cancel ${run.clientName}’s run`}>
        Cancel run
      </button>
      {confirm.dialog}
    </div>
  );
}

function RunCard({ run, report }: { run: OpsRun; report: Report }) {
  const failing = run.status === 'failed' || run.status === 'error';
  return (
    <li className={`ops-run${failing ? ' ops-run--failing' : ''}`}>
      <div className="ops-run__head">
        <h3 className="ops-run__client">
          <Link to={opsClientPath(run.clientId)}>{run.clientName}</Link>
        </h3>
        <RunStatusBadge status={run.status} />
      </div>
      <p className="ops-run__facts">
        <span>{formatDate(run.finishedAt ?? run.createdAt)}</span>
        <span>{runScopeLabel(run.scope)}</span>
        <span>Started by {TRIGGERS[run.trigger]}</span>
        {runTotalsWords(run.totals) && <span>{runTotalsWords(run.totals)}</span>}
      </p>
      {(run.status === 'queued' || run.status === 'running') && <CancelRun run={run} report={report} />}
      {(run.visualPending || run.failingTests.some((t) => t.kind === 'visual')) && (
        <div className="ops-actions">
          <Link className="btn btn--primary portal-btn-sm" to={visualReviewPaths.opsPage(run.clientId, run.runId)} aria-label={`Visual review of ${run.clientName}’s run`}>
            {run.visualPending ? `Review ${run.visualPending} visual ${run.visualPending === 1 ? 'shot' : 'shots'}` : 'Visual review'}
          </Link>
        </div>
      )}
      {run.failingTests.length > 0 && (
        <ul className="ops-tests" aria-label={`Failing tests of ${run.clientName}`}>
          {run.failingTests.map((t) => (
            <FailingTest key={t.runTestId} clientId={run.clientId} runId={run.runId} test={t} report={report} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** One feed of every client's runs, failures first, with the triage of each failing test. */
export function OpsRunsPage() {
  const [params, setParams] = useSearchParams();
  const filters = feedFilters(params);
  const runs = useGetOpsRunsQuery(filters);
  const clients = useGetOpsClientsQuery();
  const [message, setMessage] = useState<string | null>(null);
  const pages = runs.data ? Math.max(1, Math.ceil(runs.data.total / runs.data.pageSize)) : 1;

  const update = (next: { status?: string; clientId?: string; page?: number }) => {
    const merged = { status: next.status ?? filters.status ?? '', clientId: next.clientId ?? filters.clientId ?? '', page: String(next.page ?? 1) };
    setParams(Object.fromEntries(Object.entries(merged).filter(([k, v]) => v && !(k === 'page' && v === '1'))));
  };

  return (
    <PortalPage id="ops-runs-page-title" title="Runs">
      <div className="ops-page">
        <form className="ops-filters" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
          <FilterSelect id="ops-runs-client" label="Client" all="All clients" options={clientOptions(clients.data?.clients)}
            value={filters.clientId ?? ''} onChange={(clientId) => update({ clientId })} />
          <FilterSelect id="ops-runs-status" label="Status" all="All statuses" options={STATUS_OPTIONS}
            value={filters.status ?? ''} onChange={(status) => update({ status })} />
        </form>

        <AsyncState
          query={runs}
          loading="Loading runs…"
          failed="The runs could not be loaded. Please try again in a moment."
          empty={filters.status || filters.clientId ? 'No runs match these filters.' : 'No runs yet.'}
          isEmpty={(data) => data.runs.length === 0}
        >
          {(data) => (
            <>
              <p className="portal-muted">
                {data.total} {data.total === 1 ? 'run' : 'runs'}; failed and could-not-run ones first, newest first in each.
              </p>
              <ul className="ops-runs">
                {data.runs.map((run) => (
                  <RunCard key={run.runId} run={run} report={setMessage} />
                ))}
              </ul>
              <DataPager className="ops-pager" page={filters.page} pages={pages} onPage={(page) => update({ page })} />
            </>
          )}
        </AsyncState>
      </div>
      {message && <Popup message={message} onClose={() => setMessage(null)} />}
    </PortalPage>
  );
}
