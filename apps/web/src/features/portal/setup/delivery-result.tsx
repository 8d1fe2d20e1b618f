import { formatDate } from '@/lib/format-date.ts';

const STATUS_TEXT = { pending: 'Retrying', delivered: 'Delivered', failed: 'Failed' } as const;

interface Delivery {
  status: keyof typeof STATUS_TEXT;
  statusCode: number | null;
  error: string | null;
  lastAttemptAt: string | null;
  createdAt: string;
}

/** When a delivery (a bug export's, an alert's) was last tried, or made. */
export const deliveryWhen = (d: Delivery) => formatDate(d.lastAttemptAt ?? d.createdAt);

/** How a delivery went: its status, the receiver's HTTP status, and the error when it says more than that. `block`: the panel's CSS block. */
export function DeliveryResult({ delivery: d, block }: { delivery: Delivery; block: 'tracker' | 'alerts' }) {
  return (
    <>
      <span className={`${block}-status ${block}-status--${d.status}`}>{STATUS_TEXT[d.status]}</span>
      {d.statusCode !== null ? <span className="portal-muted"> HTTP {d.statusCode}</span> : null}
      {d.error && !d.error.endsWith(`HTTP ${d.statusCode}`) ? <span className={`${block}-deliveries__error`}>{d.error}</span> : null}
    </>
  );
}
