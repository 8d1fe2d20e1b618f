import type { InsightKey, TestLatestResult } from '@fullstop/contracts';
import { formatDate } from '@/lib/format-date.ts';
import { INSIGHT_TEST_WORDS } from './not-run.ts';
import './insights.css';

/**
 * Inside a card whose latest tests could not run (e.g. the scanner is not installed on our side): which test,
 * when, and why, in the words the server recorded; then whether the figures below are older ones.
 */
export function NotRunNotice({ insight, tests, hasFigures }: { insight: InsightKey; tests: readonly TestLatestResult[]; hasFigures: boolean }) {
  const words = INSIGHT_TEST_WORDS[insight];
  return (
    <div className="insight-not-run" data-testid={`not-run-${insight}`}>
      <ul className="insight-not-run__list">
        {tests.map((t) => (
          <li key={t.runTestId}>
            <p className="insight-not-run__title">
              The {words.one} “{t.testName}” could not run
              {t.finishedAt && (
                <>
                  {' '}
                  on{' '}
                  <time dateTime={t.finishedAt} title={t.finishedAt}>
                    {formatDate(t.finishedAt)}
                  </time>
                </>
              )}
              .
            </p>
            <p className="insight-not-run__why">{t.error ?? 'No reason was recorded.'}</p>
          </li>
        ))}
      </ul>
      <p className="insight-not-run__figures">
        {hasFigures ? `The figures below are from the last ${words.figures}.` : `There are no figures to show until it runs.`}
      </p>
    </div>
  );
}
