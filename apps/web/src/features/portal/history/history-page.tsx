import { runStatus, historyRunPath, type RunHistoryEntry } from '@fullstop/contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { formatDuration } from '@/lib/format-duration.ts';
import { AsyncState } from '../components/async-state.tsx';
import { DataPager } from '../components/data-pager.tsx';
import { DataTable, type DataColumn } from '../components/data-table.tsx';
import { FilterSelect, filterOptions } from '../components/filter-select.tsx';
import { PortalPage } from '../components/portal-page.tsx';
import { HISTORY_PAGE_SIZE, isGoing, liveOptions, useGetHistoryQuery, useGetHistoryTestNamesQuery } from './history-api.ts';
import { runTotalsWords } from '../components/run-totals.ts';
import { scopeText, STATUS_FILTERS, TRIGGER_LABELS, VERDICTS } from './history-texts.ts';
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

const VERDICT_OPTIONS = filterOptions(STATUS_FILTERS, VERDICTS);

const RUN_COLUMNS: DataColumn<RunHistoryEntry>[] = [
  {
    header: 'When',
    cell: (run) => (
      <>
        <Link to={historyRunPath(run.runId)} className="history-run-link">
          {formatDate(run.createdAt)}
        </Link>
        <span className="history-scope">{scopeText(run.scope, run.testCount)}</span>
      </>
    ),
  },
  {
    header: 'Started by',
    cell: (run) => (
      <>
        {TRIGGER_LABELS[run.trigger]}
        {run.requestedBy && <span className="history-who">{run.requestedBy}</span>}
      </>
    ),
  },
  { header: 'Duration', cell: (run) => formatDuration(run.durationMs, '—') },
  { header: 'Verdict', cell: (run) => <Verdict status={run.status} /> },
  { header: 'Results', cell: (run) => runTotalsWords(run.totals) ?? '—' },
];

export function HistoryPage() {
  const { page, status, test, update } = useFilters();
  const [live, setLive] = useState(false);
  const history = useGetHistoryQuery({ page, status, test }, liveOptions(live));
  if (isGoing(history.data?.runs) !== live) setLive(!live);
  const testNames = useGetHistoryTestNamesQuery();
  const pages = history.data ? Math.max(1, Math.ceil(history.data.total / HISTORY_PAGE_SIZE)) : 1;
  const filtered = Boolean(status || test);

  return (
    <PortalPage id="history-title" title="History">
      <form className="history-filters" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="history-status" label="Verdict" all="All verdicts" options={VERDICT_OPTIONS}
          value={status ?? ''} onChange={(next) => update({ status: next })} />
        <FilterSelect id="history-test" label="Test" all="All tests" options={(testNames.data ?? []).map((name) => ({ value: name, label: name }))} keepUnknown
          value={test ?? ''} onChange={(next) => update({ test: next })} />
      </form>

      <AsyncState
        query={history}
        loading="Loading runs…"
        failed="The run history could not be loaded. Please try again in a moment."
        empty={filtered ? 'No runs match these filters.' : page > 1 ? 'There are no runs on this page.' : 'No runs yet.'}
        isEmpty={(data) => data.runs.length === 0}
      >
        {(data) => (
          <>
            <DataTable
              className="history-table"
              caption={`Runs, newest first: ${data.total} in all`}
              columns={RUN_COLUMNS}
              rows={data.runs}
              rowKey={(run) => run.runId}
            />
            <DataPager className="history-pager" page={page} pages={pages} onPage={(next) => update({ page: next })} />
          </>
        )}
      </AsyncState>
    </PortalPage>
  );
}
