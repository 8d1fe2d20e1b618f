import { paths, type RunHistoryDetail } from '@fullstop/contracts';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { formatRunDate } from '@/lib/format-date.ts';
import { formatDuration } from '@/lib/format-duration.ts';
import { downloadFrom, openInNewTab } from '@/lib/open-link.ts';
import { openFailed } from './open-failed.ts';
import { isGoing, liveOptions, useGetHistoryRunQuery, wholeRunReportLink } from './history-api.ts';
import { scopeText, totalsText, TRIGGER_LABELS } from './history-texts.ts';
import { RunChanges } from './run-changes.tsx';
import { RunTestItem } from './run-test-item.tsx';
import { Verdict } from './verdict.tsx';
import './history.css';

function RunFacts({ run }: { run: RunHistoryDetail }) {
  const facts: [string, ReactNode][] = [
    ['Verdict', <Verdict key="v" status={run.status} />],
    ['When', formatRunDate(run.createdAt)],
    ['Started by', run.requestedBy ? `${TRIGGER_LABELS[run.trigger]} · ${run.requestedBy}` : TRIGGER_LABELS[run.trigger]],
    ['Duration', formatDuration(run.durationMs, 'Still running')],
    ['Tests', scopeText(run.scope, run.testCount)],
    ['Results', totalsText(run.totals) ?? '—'],
  ];
  return (
    <dl className="history-facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const reportFailed = openFailed('the report');

/** The report of every test of the run (Run all writes one): the html in a tab, the pdf as a download. */
function WholeRunReport({ runId, formats }: { runId: string; formats: string[] }) {
  if (formats.length === 0) return null;
  return (
    <div className="history-actions history-actions--run" role="group" aria-label="Report of the whole run">
      {formats.includes('html') && (
        <button type="button" className="btn btn--primary portal-btn-sm" onClick={() => openInNewTab(() => wholeRunReportLink(runId, 'html')).catch(reportFailed)}>
          Open the run report
        </button>
      )}
      {formats.includes('pdf') && (
        <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => wholeRunReportLink(runId, 'pdf').then(downloadFrom, reportFailed)}>
          Download PDF
        </button>
      )}
    </div>
  );
}

/** One run: who started it and how it went, what changed since the run before, and every test in it. */
export function RunDetailPage() {
  const { runId = '' } = useParams();
  const [live, setLive] = useState(false);
  const run = useGetHistoryRunQuery(runId, liveOptions(live));
  if (isGoing(run.data ? [run.data] : undefined) !== live) setLive(!live);
  const data = run.data;
  // Failures first: they are what the reader came for.
  const order = { failed: 0, error: 1, cancelled: 2, running: 3, queued: 4, passed: 5 } as const;
  const tests = data ? [...data.tests].sort((a, b) => order[a.status] - order[b.status] || a.testName.localeCompare(b.testName)) : [];

  return (
    <section aria-labelledby="run-title" className="history-detail">
      <Link to={paths.history} className="history-back">
        ← All runs
      </Link>
      {run.isLoading ? (
        <p className="portal-muted" role="status">
          Loading the run…
        </p>
      ) : !data ? (
        <>
          <h1 id="run-title" className="portal-page-title">
            Run not found
          </h1>
          <p className="portal-empty">{run.error && 'status' in run.error && run.error.status === 404 ? 'This run does not exist, or it is not one of yours.' : 'The run could not be loaded. Please try again in a moment.'}</p>
        </>
      ) : (
        <>
          <h1 id="run-title" className="portal-page-title">
            Run of {formatRunDate(data.createdAt)}
          </h1>
          <div className="portal-card history-section">
            <RunFacts run={data} />
            <WholeRunReport runId={data.runId} formats={data.runReportFormats} />
          </div>
          <RunChanges comparison={data.comparison} />
          <section className="history-section" aria-labelledby="run-tests-title">
            <h2 id="run-tests-title" className="history-subtitle">
              Tests
            </h2>
            <ul className="history-tests">
              {tests.map((test) => (
                <RunTestItem key={test.runTestId} runId={data.runId} test={test} />
              ))}
            </ul>
          </section>
        </>
      )}
    </section>
  );
}
