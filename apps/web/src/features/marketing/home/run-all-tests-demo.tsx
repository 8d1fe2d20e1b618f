import { useState } from 'react';
import { SuiteWindow } from './suite-window.tsx';

/** The first interactive image: "Run all tests" removes the pending cover for good, revealing a green run. */
export function RunAllTestsDemo() {
  const [covered, setCovered] = useState(true);
  return (
    <div className="demo" data-testid="run-all-tests-demo">
      <div className="demo__frame">
        <SuiteWindow state="passed" />
        {covered && (
          <div className="demo__cover" data-testid="first-cover">
            <SuiteWindow state="pending" />
            <div className="demo__action">
              <button type="button" className="btn btn--primary demo__button" onClick={() => setCovered(false)}>
                <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
                  <path d="M6 4l10 6-10 6z" fill="currentColor" />
                </svg>
                Run all tests
              </button>
            </div>
          </div>
        )}
      </div>
      <p className="demo__caption" aria-live="polite">
        {covered ? 'One click runs the whole suite.' : 'All 6 tests passed. That is the whole job of your team: one click.'}
      </p>
    </div>
  );
}
