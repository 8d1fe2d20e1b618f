import { formatDate } from '@/lib/format-date.ts';
import { DataTable, type DataColumn } from './data-table.tsx';
import './deliveries-table.css';

const STATUS_TEXT = { pending: 'Retrying', delivered: 'Delivered', failed: 'Failed' } as const;

/** One thing sent out (an alert, a bug export) and how its receiver answered. */
export interface Delivery {
  id: string;
  status: keyof typeof STATUS_TEXT;
  statusCode: number | null;
  error: string | null;
  attempts: number;
  lastAttemptAt: string | null;
  createdAt: string;
}

/** How a delivery went: its status, the receiver's HTTP status, and the error when it says more than that. */
function DeliveryResult({ delivery: d }: { delivery: Delivery }) {
  return (
    <>
      <span className={`delivery-status delivery-status--${d.status}`}>{STATUS_TEXT[d.status]}</span>
      {d.statusCode !== null ? <span className="portal-muted"> HTTP {d.statusCode}</span> : null}
      {d.error && !d.error.endsWith(`HTTP ${d.statusCode}`) ? <span className="deliveries-table__error">{d.error}</span> : null}
    </>
  );
}

/**
 * Recent deliveries: when each was last tried (or made), the caller's columns, the result and the attempts. On a
 * narrow screen each delivery is a small card of labelled lines; `empty` stands in for a table with no rows.
 */
export function DeliveriesTable<D extends Delivery>({ deliveries, columns, empty }: { deliveries: D[]; columns: DataColumn<D>[]; empty: string }) {
  if (!deliveries.length) return <p className="portal-muted">{empty}</p>;
  const all: DataColumn<D>[] = [
    { header: 'When', cell: (d) => formatDate(d.lastAttemptAt ?? d.createdAt) },
    ...columns,
    { header: 'Result', cell: (d) => <DeliveryResult delivery={d} /> },
    { header: 'Attempts', cell: (d) => d.attempts },
  ];
  return (
    <div className="deliveries-table">
      <DataTable columns={all} rows={deliveries} rowKey={(d) => d.id} />
    </div>
  );
}
