import type { BugSeverity, BugStatus } from '@fullstop/contracts';
import { SEVERITY_LABELS, STATUS_LABELS } from './bug-labels.ts';
import './bugs.css';

/** A bug's severity as a coloured pill that says it in words too. */
export function SeverityBadge({ severity }: { severity: BugSeverity }) {
  return <span className={`bug-badge bug-severity bug-severity--${severity}`}>{SEVERITY_LABELS[severity]}</span>;
}

/** A bug's status as a pill that says it in words too. */
export function StatusBadge({ status }: { status: BugStatus }) {
  return <span className={`bug-badge bug-status bug-status--${status}`}>{STATUS_LABELS[status]}</span>;
}
