import { useState } from 'react';
import { FlakyBadge } from '../../components/flaky-badge.tsx';
import { failureMessage, useClearFlakyMutation, useConfirmFlakyMutation, useGetFlakyMarksQuery } from '../ops-api.ts';

/**
 * The client's tests flagged flaky, detected (passed on retry, or flipped on one suite version) or marked by an
 * operator, each with its reason: confirm a detected flag (it then stays until cleared) or clear it.
 */
export function ClientFlaky({ clientId }: { clientId: string }) {
  const marks = useGetFlakyMarksQuery(clientId);
  const [confirm, confirmState] = useConfirmFlakyMutation();
  const [clear, clearState] = useClearFlakyMutation();
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const busy = confirmState.isLoading || clearState.isLoading;

  async function act(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      setNotice({ tone: 'success', text: done });
    } catch (error) {
      setNotice({ tone: 'error', text: failureMessage(error) });
    }
  }

  const list = marks.data?.marks ?? [];
  return (
    <section className="portal-card" aria-labelledby="ops-flaky-title">
      <h2 id="ops-flaky-title" className="portal-card__title">
        Flaky tests
      </h2>
      {marks.isError ? (
        <p className="portal-alert portal-alert--error" role="alert">
          The flaky tests could not be loaded.
        </p>
      ) : list.length === 0 ? (
        <p className="portal-muted">{marks.isLoading ? 'Loading…' : 'No test is flagged flaky.'}</p>
      ) : (
        <ul className="ops-list">
          {list.map((m) => (
            <li key={m.testName}>
              <span className="ops-wrap">
                {m.testName}{' '}
                <FlakyBadge
                  flaky={{ reason: m.reason ?? m.note ?? 'Marked flaky by an operator', source: m.source ?? 'operator', confirmed: m.confirmed ?? true, since: m.detectedAt ?? m.createdAt }}
                />{' '}
                <span className="ops-muted">{m.source === 'detected' ? (m.confirmed ? 'detected, confirmed' : 'detected') : 'marked by an operator'}</span>
              </span>
              <span className="ops-actions">
                {m.confirmed === false && (
                  <button type="button" className="btn btn--ghost portal-btn-sm" disabled={busy} onClick={() => void act(() => confirm({ clientId, testName: m.testName }).unwrap(), `“${m.testName}” confirmed flaky`)}>
                    Confirm flaky
                  </button>
                )}
                <button type="button" className="btn btn--ghost portal-btn-sm" disabled={busy} onClick={() => void act(() => clear({ clientId, testName: m.testName }).unwrap(), `“${m.testName}” is no longer marked flaky`)}>
                  Clear flaky
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {notice && (
        <p className={`portal-alert portal-alert--${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </p>
      )}
    </section>
  );
}
