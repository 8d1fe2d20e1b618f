import { runScopeLabel, type RunDetailResponse, type RunSummary } from '@fullstop/contracts';
import { Link } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { Card } from '../components/card.tsx';
import { ManualWaitingNote } from '../components/manual-waiting.tsx';
import { RunStatusBadge } from '../components/run-status-badge.tsx';
import { runDetailPath, runTotalsText, runVerdict } from './home-summary.ts';

/** The newest run: when, its verdict in words, how many tests passed, its manual cases waiting, and a link to its detail. */
export function LastRunCard({ run, detail }: { run: RunSummary; detail: RunDetailResponse | undefined }) {
  const tests = detail?.tests ?? [];
  const verdict = runVerdict(run.status, tests);
  const when = run.finishedAt ?? run.createdAt;
  return (
    <Card id="home-last-run" title="Last run" className="home-card home-last-run" titleClassName="home-card__title">
      <p className="home-last-run__verdict">
        <RunStatusBadge status={run.status} label={verdict} />
      </p>
      {detail && <p className="home-last-run__totals">{runTotalsText(run.status, tests)}</p>}
      {detail && <ManualWaitingNote run={detail} />}
      <p className="home-card__meta">
        {runScopeLabel(run.scope)}
        {' · '}
        {run.finishedAt ? 'finished ' : 'started '}
        <time dateTime={when}>{formatDate(when)}</time>
      </p>
      <Link className="home-card__link" to={runDetailPath(run.runId)}>
        View run details
      </Link>
    </Card>
  );
}
