import { AsyncFailed } from '../../components/async-state.tsx';
import { Card } from '../../components/card.tsx';
import { FlakyBadge } from '../../components/flaky-badge.tsx';
import { Notice } from '../../components/notice.tsx';
import { useClearFlakyMutation, useConfirmFlakyMutation, useGetFlakyMarksQuery } from '../ops-api.ts';
import { useCardNotice } from './use-card-notice.ts';

/**
 * The client's tests flagged flaky, detected (passed on retry, or flipped on one suite version) or marked by an
 * operator, each with its reason: confirm a detected flag (it then stays until cleared) or clear it.
 */
export function ClientFlaky({ clientId }: { clientId: string }) {
  const marks = useGetFlakyMarksQuery(clientId);
  const [confirm, confirmState] = useConfirmFlakyMutation();
  const [clear, clearState] = useClearFlakyMutation();
  const { notice, act } = useCardNotice();
  const busy = confirmState.isLoading || clearState.isLoading;

  const list = marks.data?.marks ?? [];
  return (
    <Card id="ops-flaky-title" title="Flaky tests">
      {marks.isError ? (
        <AsyncFailed>The flaky tests could not be loaded.</AsyncFailed>
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
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
    </Card>
  );
}
