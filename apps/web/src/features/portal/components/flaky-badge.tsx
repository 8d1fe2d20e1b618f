import type { TestFlaky } from '@fullstop/contracts';
import './flaky-badge.css';

/** Why a test is flagged flaky, in one sentence a client reads. */
export function flakyText(flaky: TestFlaky): string {
  const reason = flaky.reason.replace(/\.$/, '');
  return flaky.confirmed ? `${reason}. Confirmed by the Fullstop team.` : `${reason}. Cleared after 10 passing runs in a row.`;
}

/**
 * "Flaky" beside a test whose result cannot be trusted yet: it passed on retry or flipped between runs. The reason
 * is the tooltip and, for screen readers, the text after the word. Nothing when the test is not flagged.
 */
export function FlakyBadge({ flaky }: { flaky: TestFlaky | null | undefined }) {
  if (!flaky) return null;
  const text = flakyText(flaky);
  return (
    <span className="flaky-badge" title={text} data-testid="flaky-badge">
      Flaky<span className="visually-hidden">: {text}</span>
    </span>
  );
}
