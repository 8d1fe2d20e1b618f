import { skipToken } from '@reduxjs/toolkit/query/react';
import { CollapsibleGroup } from '../components/collapsible-group.tsx';
import { toFailure, useGetTestsQuery, useRunAllTestsMutation, useRunTestMutation } from '../store/portal-api.ts';
import { useClientProfile } from '../store/use-client-profile.ts';
import { describeLiveTest, useLiveTests } from './live-status.ts';
import { countTests, runAcceptedText, TESTS_TEXT } from './tests-texts.ts';

/** A rejected mutation carries the store's ApiFailure; anything else is described the same way. */
function failureText(error: unknown): string {
  return error && typeof error === 'object' && 'message' in error ? String(error.message) : toFailure(error).message;
}

export function TestsPage() {
  const profile = useClientProfile();
  const apiKey = profile.data?.apiToken || null;
  const tests = useGetTestsQuery(apiKey ?? skipToken);
  const [runAll, runAllState] = useRunAllTestsMutation();
  const [runOne] = useRunTestMutation();
  const groups = Object.entries(tests.data ?? {});
  const total = countTests(tests.data ?? {});
  const live = useLiveTests(total > 0);

  async function onRunAll() {
    if (!apiKey) return;
    try {
      window.alert(runAcceptedText(await runAll(apiKey).unwrap()));
    } catch (error) {
      window.alert(TESTS_TEXT.runAllError + failureText(error));
    }
  }

  async function onRunTest(testName: string) {
    if (!apiKey) return;
    try {
      window.alert(runAcceptedText(await runOne({ testName, apiKey }).unwrap()));
    } catch (error) {
      window.alert(TESTS_TEXT.runOneError(testName) + failureText(error));
    }
  }

  const loading = profile.isLoading || tests.isLoading;
  return (
    <section aria-labelledby="tests-title">
      <div className="portal-page-head">
        <h1 id="tests-title" className="portal-page-title">
          Tests
        </h1>
        {total > 0 && (
          <button type="button" className="btn btn--primary" onClick={onRunAll} disabled={runAllState.isLoading}>
            Run All Tests
          </button>
        )}
      </div>
      {loading ? (
        <p className="portal-muted" role="status">Loading tests…</p>
      ) : total === 0 ? (
        <p className="portal-empty">{TESTS_TEXT.empty}</p>
      ) : (
        <div className="portal-stack">
          {groups.map(([group, names]) => (
            <CollapsibleGroup key={group} name={group} count={names.length}>
              <ul className="portal-rows">
                {names.map((testName) => (
                  <li key={testName} className="portal-row">
                    <span className="portal-row__main">
                      <span className="portal-row__name">{testName}</span>
                      {live[testName] && (
                        <span className="portal-live" data-testid="live-status" aria-live="polite">
                          <span className={`portal-live__dot portal-live__dot--${live[testName].status}`} aria-hidden="true" />
                          {describeLiveTest(live[testName])}
                        </span>
                      )}
                    </span>
                    <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => onRunTest(testName)}>
                      Run Test
                    </button>
                  </li>
                ))}
              </ul>
            </CollapsibleGroup>
          ))}
        </div>
      )}
    </section>
  );
}
