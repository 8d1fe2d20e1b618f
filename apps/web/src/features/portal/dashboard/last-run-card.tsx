import { runScopeLabel, type RunDetailResponse, type RunSummary } from '@fullstop/contracts';
import { Link } from 'react-router';
import { formatRunDate } from '@/lib/format-date.ts';
import { RunStatusBadge } from '../components/run-status-badge.tsx';
import { runDetailPath, runTotalsText, runVerdict } from './home-summary.ts';

/** The newest run: when, its verdict in words, how many tests passed, and a link to its detail. */
export function LastRunCard({ run, detail }: { run: RunSummary; detail: RunDetailResponse | undefined }) {
  const tests = detail?.tests ?? [];
  const verdict = runVerdict(run.status, tests);
  const when = run.finishedAt ?? run.createdAt;
  return (
    <section className="portal-card home-card home-last-run" aria-labelledby="home-last-run">
      <h2 id="home-last-run" className="home-card__title">
        Last run
      </h2>
      <p className="home-last-run__verdict">
        <RunStatusBadge status={run.status} label={verdict} />
      </p>
      {detail && <p className="home-last-run__totals">{runTotalsText(run.status, tests)}</p>}
      <p className="home-card__meta">
        {runScopeLabel(run.scope)}
        {' · '}
        {run.finishedAt ? 'finished ' : 'started '}
        <time dateTime={when}>{formatRunDate(when)}</time>
      </p>
      <Link className="home-card__link" to={runDetailPath(run.runId)}>
        View run details
      </Link>
    </section>
  );
}
