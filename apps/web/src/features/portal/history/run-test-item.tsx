import type { RunHistoryDetail } from '@fullstop/contracts';
import { formatDuration } from '@/lib/format-duration.ts';
import { CellCallout, CellMatrix } from '../components/cell-matrix/cell-matrix.tsx';
import { FlakyBadge } from '../components/flaky-badge.tsx';
import { CellEvidence } from './cell-evidence.tsx';
import { openInNewTab } from '@/lib/open-link.ts';
import { runReportLink } from './history-api.ts';
import { openFailed } from './open-failed.ts';
import { queuePlaceText } from '../components/queue-place-text.ts';
import { runTotalsWords } from '../components/run-totals.ts';
import { attemptsText, retryText } from './history-texts.ts';
import { TestEvidence } from './test-evidence.tsx';
import { Verdict } from './verdict.tsx';

type RunTest = RunHistoryDetail['tests'][number];

/** Formats a browser shows in a tab of its own. */
const SHOWN = ['html', 'json'] as const;

function openReport(runId: string, test: RunTest, format: string) {
  openInNewTab(() => runReportLink(runId, test.runTestId, format)).catch(openFailed('the report'));
}

/**
 * One test of a run: verdict, duration, attempts, its error, its cases by engine and device when it ran on several
 * (with where it fails, "fails on Firefox only"), its evidence and this run's reports of it.
 */
export function RunTestItem({ runId, test }: { runId: string; test: RunTest }) {
  // A waiting test says where it stands in the queue instead of how long it took; a cancelled one who stopped it.
  const cancelled = test.status === 'cancelled';
  const facts = (
    test.status === 'queued' && test.queue
      ? [queuePlaceText(test.queue)]
      : [formatDuration(test.durationMs), retryText(test) ?? attemptsText(test.attempts), runTotalsWords(test.totals), cancelled ? test.error : null]
  ).filter(Boolean);
  const formats = SHOWN.filter((f) => test.reportFormats.includes(f));
  return (
    <li className="history-test">
      <div className="history-test__head">
        <h3 className="history-test__name">{test.testName}</h3>
        <span className="history-test__badges">
          <FlakyBadge flaky={test.flaky} />
          <Verdict status={test.status} error={test.error} />
        </span>
      </div>
      <p className="history-test__facts">
        <span>{test.group}</span>
        {facts.map((f) => (
          <span key={f}>{f}</span>
        ))}
      </p>
      {test.error && !cancelled && <pre className="history-test__error">{test.error}</pre>}
      {test.cases && (
        <>
          <CellCallout cases={test.cases} />
          <CellMatrix
            cases={test.cases}
            evidence={
              test.evidenceCount > 0
                ? (caseName, cell) => <CellEvidence ids={{ runId, runTestId: test.runTestId }} caseName={caseName} cell={cell} />
                : undefined
            }
          />
        </>
      )}
      {test.evidenceCount > 0 && <TestEvidence ids={{ runId, runTestId: test.runTestId }} />}
      {formats.length > 0 && (
        <div className="history-actions">
          {formats.map((format) => (
            <button
              key={format}
              type="button"
              className="btn btn--ghost portal-btn-sm"
              aria-label={`Open the ${format.toUpperCase()} report of ${test.testName}`}
              onClick={() => openReport(runId, test, format)}
            >
              {format.toUpperCase()} report
            </button>
          ))}
        </div>
      )}
    </li>
  );
}
