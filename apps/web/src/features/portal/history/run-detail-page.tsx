import { paths, type RunHistoryDetail } from '@fullstop/contracts';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { formatRunDate } from '@/lib/format-date.ts';
import { formatDuration } from '@/lib/format-duration.ts';
import { isGoing, liveOptions, useGetHistoryRunQuery } from './history-api.ts';
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
