import type { TestLatestResult } from '@fullstop/contracts';
import { formatDuration } from '@/lib/format-duration.ts';
import { formatDate } from '@/lib/format-date.ts';
import { CellCallout, CellMatrix } from '../components/cell-matrix/cell-matrix.tsx';
import { FlakyBadge } from '../components/flaky-badge.tsx';
import { RunStatusBadge, testStatusWords } from '../components/run-status-badge.tsx';
import { isGoing, liveTestDetails, type LiveTest } from './live-status.ts';
import { ManualSteps, ManualTag, type ManualCase } from './manual-case.tsx';

interface TestRowProps {
  testName: string;
  /** The test's latest event on the live stream, when the page has one. */
  live: LiveTest | undefined;
  /** How the test last ended (GET /test/latest), when it ever did. */
  latest: TestLatestResult | undefined;
  /** The latest results were read: a test without one never ran (rather than: not known yet). */
  resultsRead: boolean;
  /** Its own run (Run Test, not a run of all) is being queued or goes: Run Test waits. */
  busy: boolean;
  onRun: () => void;
  onOpenReport: () => void;
  /** Asks to cancel its queued or running run test; absent for those who may not (viewers). */
  onCancel?: (() => void) | undefined;
  /** Its goal and steps when it is a manual case (a tester runs it); absent for automated tests. */
  manualCase?: ManualCase | undefined;
}

/** The status the row shows: the live one, else the last result. */
function shownStatus(live: LiveTest | undefined, latest: TestLatestResult | undefined) {
  if (live) return live;
  if (!latest) return null;
  return { testName: latest.testName, status: latest.status, progress: null, totals: latest.totals, error: latest.error, finishedAt: latest.finishedAt };
}

/**
 * One test: its name, what it is doing now or how it last ended (a status word on a coloured pill, then the
 * details), when that was and how long it took, a link to its latest report, and its Run Test button, which
 * waits while the test's own run goes. A test on several engines or devices adds where it fails ("fails on Firefox
 * only") and its cases by cell, folded. A manual case adds its tag and its steps, folded.
 */
export function TestRow({ testName, live, latest, resultsRead, busy, onRun, onOpenReport, onCancel, manualCase }: TestRowProps) {
  const status = shownStatus(live, latest);
  const details = status ? liveTestDetails(status) : null;
  // While a newer run goes (or ended before the latest result was read again), the result below is the previous one.
  const previous = Boolean(live && latest && live.runTestId !== latest.runTestId);
  const hasReport = latest?.reportFormats.includes('html') ?? false;
  return (
    <li className="portal-row test-row">
      <span className="portal-row__main">
        <span className="test-row__title">
          <span className="portal-row__name">{testName}</span>
          {manualCase && <ManualTag />}
        </span>
        {/* Beside the live status, not in it: the status reads "Passed: …", the flag is a note of its own. */}
        <FlakyBadge flaky={latest?.flaky} />
        {status ? (
          <span className="test-row__status" data-testid="live-status" aria-live="polite">
            <RunStatusBadge status={status.status} error={status.error} />
            {details && (
              <>
                <span className="visually-hidden">: </span>
                <span className="test-row__details">{details}</span>
              </>
            )}
          </span>
        ) : (
          resultsRead && <span className="test-row__meta">Not run yet</span>
        )}
        {latest && (
          <span className="test-row__meta" data-testid="last-result">
            {previous && <span>Last result: {testStatusWords(latest.status, latest.error)}</span>}
            {latest.finishedAt && (
              <time dateTime={latest.finishedAt} title={latest.finishedAt}>
                {formatDate(latest.finishedAt)}
              </time>
            )}
            {latest.durationMs !== null && <span>took {formatDuration(latest.durationMs)}</span>}
            {hasReport && (
              <button type="button" className="portal-link-button test-row__report" onClick={onOpenReport}>
                Report
              </button>
            )}
          </span>
        )}
        {latest?.cases && (
          <>
            <CellCallout cases={latest.cases} />
            <details className="test-row__matrix">
              <summary>Engines and devices</summary>
              <CellMatrix cases={latest.cases} />
            </details>
          </>
        )}
        {manualCase && <ManualSteps manualCase={manualCase} />}
      </span>
      <span className="test-row__actions">
        {onCancel && isGoing(live) && (
          <button type="button" className="btn btn--ghost portal-btn-sm test-row__cancel" onClick={onCancel} aria-label={`Cancel ${testName}`}>
            Cancel
          </button>
        )}
        <button type="button" className="btn btn--ghost portal-btn-sm" onClick={onRun} disabled={busy}>
          Run Test
        </button>
      </span>
    </li>
  );
}
