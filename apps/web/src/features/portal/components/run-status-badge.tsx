import { incompleteScanWords, type RunStatus } from '@fullstop/contracts';
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

/**
 * A test's status in words, given its error: a scan that ran but could not attack everything is "Incomplete scan", one
 * that found nothing to attack "Nothing to attack".
 */
export function testStatusWords(status: RunStatus, error?: string | null): string {
  return incompleteScanWords(status, error) ?? RUN_STATUS_WORDS[status];
}

/** A status as a coloured pill that also says it in words, so colour is never the only signal. */
export function RunStatusBadge({ status, label, error }: { status: RunStatus; label?: string; error?: string | null }) {
  return <span className={`run-status run-status--${status}`}>{label ?? testStatusWords(status, error)}</span>;
}
