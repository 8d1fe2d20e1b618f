import { runStatus, historyRunPath, type RunHistoryEntry } from '@fullstop/contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatRunDate } from '@/lib/format-date.ts';
import { formatDuration } from '@/lib/format-duration.ts';
import { PortalPage } from '../components/portal-page.tsx';
import { HISTORY_PAGE_SIZE, isGoing, liveOptions, useGetHistoryQuery, useGetHistoryTestNamesQuery } from './history-api.ts';
import { scopeText, STATUS_FILTERS, totalsText, TRIGGER_LABELS, VERDICTS } from './history-texts.ts';
import { Verdict } from './verdict.tsx';
import './history.css';

/** Page, status and test live in the address, so a filtered page can be shared, reloaded and gone back to. */
function useFilters() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const parsed = runStatus.safeParse(params.get('status'));
  const status = parsed.success ? parsed.data : undefined;
  const test = params.get('test') || undefined;
  const update = (next: { page?: number; status?: string; test?: string }) => {
    const merged = { page: String(next.page ?? 1), status: next.status ?? status ?? '', test: next.test ?? test ?? '' };
    setParams(Object.fromEntries(Object.entries(merged).filter(([k, v]) => v && !(k === 'page' && v === '1'))));
  };
  return { page, status, test, update };
}

function RunRow({ run }: { run: RunHistoryEntry }) {
  const when = formatRunDate(run.createdAt);
  return (
    <tr>
      <td data-label="When">
        <Link to={historyRunPath(run.runId)} className="history-run-link">
          {when}
        </Link>
        <span className="history-scope">{scopeText(run.scope, run.testCount)}</span>
      </td>
      <td data-label="Started by">
        {TRIGGER_LABELS[run.trigger]}
        {run.requestedBy && <span className="history-who">{run.requestedBy}</span>}
      </td>
      <td data-label="Duration">{formatDuration(run.durationMs, '—')}</td>
      <td data-label="Verdict">
        <Verdict status={run.status} />
      </td>
      <td data-label="Results">{totalsText(run.totals) ?? '—'}</td>
    </tr>
  );
}

export function HistoryPage() {
  const { page, status, test, update } = useFilters();
  const [live, setLive] = useState(false);
  const history = useGetHistoryQuery({ page, status, test }, liveOptions(live));
  if (isGoing(history.data?.runs) !== live) setLive(!live);
  const testNames = useGetHistoryTestNamesQuery();
  const data = history.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / HISTORY_PAGE_SIZE)) : 1;
  const filtered = Boolean(status || test);

  return (
    <PortalPage id="history-title" title="History">
      <form className="history-filters" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        <div className="portal-field">
          <label htmlFor="history-status">Verdict</label>
          <select id="history-status" value={status ?? ''} onChange={(e) => update({ status: e.target.value })}>
            <option value="">All verdicts</option>
            {STATUS_FILTERS.map((s) => (
              <option key={s} value={s}>
                {VERDICTS[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="portal-field">
          <label htmlFor="history-test">Test</label>
          <select id="history-test" value={test ?? ''} onChange={(e) => update({ test: e.target.value })}>
            <option value="">All tests</option>
            {test && !testNames.data?.includes(test) && <option value={test}>{test}</option>}
            {(testNames.data ?? []).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </form>

      {history.isLoading ? (
        <p className="portal-muted" role="status">
          Loading runs…
        </p>
      ) : history.isError || !data ? (
        <p className="portal-alert portal-alert--error" role="alert">
          The run history could not be loaded. Please try again in a moment.
        </p>
      ) : data.runs.length === 0 ? (
        <p className="portal-empty">{filtered ? 'No runs match these filters.' : page > 1 ? 'There are no runs on this page.' : 'No runs yet.'}</p>
      ) : (
        <>
          <table className="history-table">
            <caption className="visually-hidden">
              Runs, newest first: {data.total} in all
            </caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Started by</th>
                <th scope="col">Duration</th>
                <th scope="col">Verdict</th>
                <th scope="col">Results</th>
              </tr>
            </thead>
            <tbody>
              {data.runs.map((run) => (
                <RunRow key={run.runId} run={run} />
              ))}
            </tbody>
          </table>
          <nav className="history-pager" aria-label="Pages">
            <button type="button" className="btn btn--ghost portal-btn-sm" disabled={page <= 1} onClick={() => update({ page: page - 1 })}>
              Previous
            </button>
            <span aria-live="polite">
              Page {page} of {pages}
            </span>
            <button type="button" className="btn btn--ghost portal-btn-sm" disabled={page >= pages} onClick={() => update({ page: page + 1 })}>
              Next
            </button>
          </nav>
        </>
      )}
    </PortalPage>
  );
}
