import type { OpsFailingTest } from '@fullstop/contracts';
import { Link } from 'react-router';
import { failureMessage } from '@/lib/failure-message.ts';
import { FlakyBadge } from '../../components/flaky-badge.tsx';
import { RunStatusBadge } from '../../components/run-status-badge.tsx';
import { FailingTestEvidence } from './failing-test-evidence.tsx';
import { useClearFlakyMutation, useConfirmFlakyMutation, useMarkFalsePositiveMutation, useMarkFlakyMutation, useRerunTestMutation } from '../ops-api.ts';
import { canMarkFalsePositive, createBugLink, findingText, rerunLabel } from './triage-links.ts';

/** Tells the page what an action did, or why it failed, in words. */
export type Report = (message: string) => void;

/**
 * One failing test of a run with its error, its report, traces and screenshots, and its triage: create bug, mark
 * flaky or clear it, mark false positive, re-run.
 */
export function FailingTest({ clientId, runId, test, report }: { clientId: string; runId: string; test: OpsFailingTest; report: Report }) {
  const [markFlaky, flakyState] = useMarkFlakyMutation();
  const [clearFlaky, clearState] = useClearFlakyMutation();
  const [confirmFlaky, confirmState] = useConfirmFlakyMutation();
  const [markFalsePositive, fpState] = useMarkFalsePositiveMutation();
  const [rerun, rerunState] = useRerunTestMutation();
  const busy = flakyState.isLoading || clearState.isLoading || confirmState.isLoading || fpState.isLoading || rerunState.isLoading;

  async function act(action: () => Promise<{ message?: string }>, done: string) {
    try {
      const answer = await action();
      report(answer.message ?? done);
    } catch (error) {
      report(`That did not work: ${failureMessage(error)}`);
    }
  }

  const { testName } = test;
  /** Flags the test flaky (or confirms the flag) and says so in our own words, not the server's. */
  const flag = (call: (arg: { clientId: string; testName: string }) => { unwrap: () => Promise<unknown> }, words: string) =>
    act(async () => (await call({ clientId, testName }).unwrap(), { message: `“${testName}” ${words}` }), words);
  return (
    <li className="ops-test">
      <div className="ops-run__head">
        <h4 className="ops-test__name">
          {testName} <span className="ops-muted">{test.kind}</span>
        </h4>
        <span className="ops-actions">
          {test.flakyFlag ? <FlakyBadge flaky={test.flakyFlag} /> : test.flaky && <span className="ops-flaky">Flaky</span>}
          <RunStatusBadge status={test.status} error={test.error} />
        </span>
      </div>
      {test.error && <pre className="ops-test__error">{test.error}</pre>}
      <FailingTestEvidence clientId={clientId} runId={runId} runTestId={test.runTestId} report={report} />
      {test.findings.length > 0 && (
        <ul className="ops-findings" aria-label={`Findings of ${testName}`}>
          {test.findings.map((f) => (
            <li key={`${f.source}-${f.ruleId}-${f.url ?? ''}`} className="ops-finding">
              <span className="ops-finding__text">
                <span className="portal-mono">{f.ruleId}</span> {findingText(f)}
                {f.falsePositive && <span className="ops-muted">Marked a false positive</span>}
              </span>
              <Link className="btn btn--ghost portal-btn-sm" to={createBugLink(clientId, test.runTestId, f.ruleId)} aria-label={`Create bug from ${f.ruleId}${f.url ? ` on ${f.url}` : ''}`}>
                Create bug
              </Link>
              {canMarkFalsePositive(f) && (
                <button
                  type="button"
                  className="btn btn--ghost portal-btn-sm"
                  disabled={busy}
                  aria-label={`Mark false positive: ${f.ruleId}${f.url ? ` on ${f.url}` : ''}`}
                  onClick={() => void act(() => markFalsePositive({ clientId, ruleId: f.ruleId, ...(f.url ? { url: f.url } : {}) }).unwrap(), 'Marked a false positive')}
                >
                  Mark false positive
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="ops-actions">
        <Link className="btn btn--primary portal-btn-sm" to={createBugLink(clientId, test.runTestId)} aria-label={`Create bug from ${testName}`}>
          Create bug
        </Link>
        {test.flakyFlag && !test.flakyFlag.confirmed && (
          <button type="button" className="btn btn--ghost portal-btn-sm" disabled={busy} onClick={() => void flag(confirmFlaky, 'confirmed flaky')}>
            Confirm flaky
          </button>
        )}
        {test.flaky ? (
          <button type="button" className="btn btn--ghost portal-btn-sm" disabled={busy} onClick={() => void act(() => clearFlaky({ clientId, testName }).unwrap(), 'Flaky mark cleared')}>
            Clear flaky
          </button>
        ) : (
          <button type="button" className="btn btn--ghost portal-btn-sm" disabled={busy} onClick={() => void flag(markFlaky, 'marked flaky')}>
            Mark flaky
          </button>
        )}
        <button type="button" className="btn btn--ghost portal-btn-sm" disabled={busy} aria-label={rerunLabel(test)} onClick={() => void act(() => rerun({ clientId, testName }).unwrap(), 'Re-run queued')}>
          Re-run
        </button>
      </div>
    </li>
  );
}
