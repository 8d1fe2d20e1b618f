import type { TestLatestResult } from '@fullstop/contracts';
import { formatDate } from '@/lib/format-date.ts';
import { RunStatusBadge } from '../components/run-status-badge.tsx';

interface FailingTestsCardProps {
  failing: TestLatestResult[];
  onOpenReport: (testName: string) => void;
}

/** Tests whose latest result failed or could not run: name, group, when, and their latest report. */
export function FailingTestsCard({ failing, onOpenReport }: FailingTestsCardProps) {
  return (
    <section className="portal-card home-card home-failing" aria-labelledby="home-failing">
      <h2 id="home-failing" className="home-card__title">
        Failing tests
        {failing.length > 0 && <span className="portal-badge home-card__count">{failing.length}</span>}
      </h2>
      {failing.length === 0 ? (
        <p className="home-card__ok">No failing tests: every test passed its latest run.</p>
      ) : (
        <ul className="portal-rows home-failing__list">
          {failing.map((test) => (
            <li key={test.testName} className="portal-row home-failing__row">
              <span className="portal-row__main">
                <span className="portal-row__name">{test.testName}</span>
                <span className="home-card__meta">
                  {test.group}
                  {test.finishedAt && (
                    <>
                      {' · failing as of '}
                      <time dateTime={test.finishedAt}>{formatDate(test.finishedAt)}</time>
                    </>
                  )}
                </span>
              </span>
              <span className="home-failing__actions">
                <RunStatusBadge status={test.status} error={test.error} />
                {test.reportFormats.includes('html') && (
                  <button
                    type="button"
                    className="portal-link-button home-failing__report"
                    aria-label={`Report of ${test.testName}`}
                    onClick={() => onOpenReport(test.testName)}
                  >
                    Report
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
