import type { ClientRequestKind, ClientRequestStatus } from '@fullstop/contracts';

export const KIND_LABELS: Record<ClientRequestKind, string> = {
  'new-feature': 'New feature to test',
  'manual-test': 'Manual test',
  retest: 'Free retest (satisfaction guarantee)',
};

export const STATUS_LABELS: Record<ClientRequestStatus, string> = {
  open: 'Open',
  'in-progress': 'In progress',
  done: 'Done',
  declined: 'Declined',
};
