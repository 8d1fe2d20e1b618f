import type { ClientRequestStatus } from '@fullstop/contracts';
import { STATUS_LABELS } from './request-labels.ts';
import './requests.css';

export function RequestStatusBadge({ status }: { status: ClientRequestStatus }) {
  return <span className={`portal-status request-status request-status--${status}`}>{STATUS_LABELS[status]}</span>;
}
