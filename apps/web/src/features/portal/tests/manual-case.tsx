import type { ManualCaseListResponse } from '@fullstop/contracts';
import { useId, useState } from 'react';
import './manual-case.css';

/** One manual test case as the client's Tests page shows it (GET /test/manual-cases, issue 41). */
export type ManualCase = ManualCaseListResponse['cases'][number];

/** "Run by a tester on: iPhone 15 · Safari · iOS 18 · about 20 min". */
export function manualRunText(manualCase: Pick<ManualCase, 'platforms' | 'estimateMinutes'>): string {
  const on = manualCase.platforms.length > 0 ? ` on: ${manualCase.platforms.join('; ')}` : '';
  const estimate = manualCase.estimateMinutes > 0 ? ` · about ${manualCase.estimateMinutes} min` : '';
  return `Run by a tester${on}${estimate}`;
}

/** "Manual" beside the name of a test a person runs by hand rather than a worker. */
export function ManualTag() {
  return (
    <span className="manual-tag" title="Run by a tester, by hand">
      Manual
    </span>
  );
}

/**
 * A manual case's goal, preconditions and numbered steps ("action → expected", with the WCAG criteria a step
 * checks), folded under a Steps button: a suite may hold many cases and the page lists every test.
 */
export function ManualSteps({ manualCase }: { manualCase: ManualCase }) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const { testName, goal, preconditions, steps } = manualCase;
  return (
    <div className="manual-steps">
      <button type="button" className="manual-steps__toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((v) => !v)}>
        <svg className="manual-steps__chevron" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path d="M9 6l6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        Steps <span className="visually-hidden">of {testName}</span> ({steps.length})
      </button>
      <div id={bodyId} className="manual-steps__body" hidden={!open}>
        <p className="manual-steps__goal">
          <strong>Goal:</strong> {goal}
        </p>
        {preconditions.length > 0 && (
          <div>
            <strong>Before starting:</strong>
            <ul className="manual-steps__preconditions">
              {preconditions.map((precondition, i) => (
                <li key={i}>{precondition}</li>
              ))}
            </ul>
          </div>
        )}
        <ol className="manual-steps__list">
          {steps.map((step, i) => (
            <li key={i}>
              {step.action} <span aria-hidden="true">→</span>
              <span className="visually-hidden">expected:</span> {step.expected}
              {step.wcag.length > 0 && <small className="manual-steps__wcag">WCAG {step.wcag.join(', ')}</small>}
            </li>
          ))}
        </ol>
        <p className="manual-steps__run">{manualRunText(manualCase)}</p>
      </div>
    </div>
  );
}
