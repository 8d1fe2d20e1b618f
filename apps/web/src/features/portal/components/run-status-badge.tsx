import type { RunStatus } from '@fullstop/contracts';
import './run-status-badge.css';

/** A run's or a test's status in words; "error" means the test could not run at all (target down, crash). */
export const RUN_STATUS_WORDS: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  passed: 'Passed',
  failed: 'Failed',
  error: 'Could not run',
  cancelled: 'Cancelled',
};

/** A status as a coloured pill that also says it in words, so colour is never the only signal. */
export function RunStatusBadge({ status, label }: { status: RunStatus; label?: string }) {
  return <span className={`run-status run-status--${status}`}>{label ?? RUN_STATUS_WORDS[status]}</span>;
}
