import { paths, type RunHistoryDetail } from '@fullstop/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { formatDuration } from '@/lib/format-duration.ts';
import { downloadFrom, openInNewTab } from '@/lib/open-link.ts';
import { AsyncEmpty, AsyncLoading, isMissing } from '../components/async-state.tsx';
import { DataFacts } from '../components/data-facts.tsx';
import { ManualWaitingNote } from '../components/manual-waiting.tsx';
import { openFailed } from './open-failed.ts';
import { going, isGoing, liveOptions, useGetHistoryRunQuery, wholeRunReportLink } from './history-api.ts';
import { runTotalsWords } from '../components/run-totals.ts';
import { scopeText, TRIGGER_LABELS } from './history-texts.ts';
import { CancelRunButton } from './cancel-run-button.tsx';
import { RunChanges } from './run-changes.tsx';
import { RunTestItem } from './run-test-item.tsx';
import { VisualReviewSection } from './visual-review-section.tsx';
import { AfterDeploySection } from './after-deploy-section.tsx';
import { HealedSection } from './healed-section.tsx';
import { Verdict } from './verdict.tsx';
import './history.css';

function RunFacts({ run }: { run: RunHistoryDetail }) {
  return (
    <DataFacts
      className="history-facts"
      facts={[
        { term: 'Verdict', value: <Verdict status={run.status} /> },
        { term: 'When', value: formatDate(run.createdAt) },
        { term: 'Started by', value: run.requestedBy ? `${TRIGGER_LABELS[run.trigger]} · ${run.requestedBy}` : TRIGGER_LABELS[run.trigger] },
        { term: 'Duration', value: formatDuration(run.durationMs, 'Still running') },
        { term: 'Tests', value: scopeText(run.scope, run.testCount) },
        { term: 'Results', value: runTotalsWords(run.totals) ?? '—' },
      ]}
    />
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
  // Waiting ones in the order they start.
  const place = (t: { queue?: { position: number } | null }) => t.queue?.position ?? Number.MAX_SAFE_INTEGER;
  const tests = data ? [...data.tests].sort((a, b) => order[a.status] - order[b.status] || place(a) - place(b) || a.testName.localeCompare(b.testName)) : [];

  return (
    <section aria-labelledby="run-title" className="history-detail">
      <Link to={paths.history} className="history-back">
        ← All runs
      </Link>
      {run.isLoading ? (
        <AsyncLoading>Loading the run…</AsyncLoading>
      ) : !data ? (
        <>
          <h1 id="run-title" className="portal-page-title">
            Run not found
          </h1>
          <AsyncEmpty>{isMissing(run) ? 'This run does not exist, or it is not one of yours.' : 'The run could not be loaded. Please try again in a moment.'}</AsyncEmpty>
        </>
      ) : (
        <>
          <h1 id="run-title" className="portal-page-title">
            Run of {formatDate(data.createdAt)}
          </h1>
          <div className="portal-card history-section">
            <RunFacts run={data} />
            <ManualWaitingNote run={data} />
            {going(data.status) && (
              <CancelRunButton runId={data.runId} running={data.status === 'running'} onCancelled={() => void run.refetch()} />
            )}
            <WholeRunReport runId={data.runId} formats={data.runReportFormats} />
          </div>
          <RunChanges comparison={data.comparison} />
          <VisualReviewSection runId={data.runId} />
          {data.afterDeploy && <AfterDeploySection runId={data.runId} />}
          <HealedSection runId={data.runId} />
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
