import { opsClientPath, queuePlaceWords, type OpsSystem } from '@fullstop/contracts';
import { Link } from 'react-router';
import { AsyncEmpty } from '../../components/async-state.tsx';
import { DataTable, type DataColumn } from '../../components/data-table.tsx';
import { formatDuration } from '@/lib/format-duration.ts';

type Waiting = NonNullable<OpsSystem['waiting']>[number];

/** "In about 1 min", "Any moment". */
function startsText(w: Waiting): string {
  const words = queuePlaceWords(w, formatDuration).starts.replace(/^starts /, '');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const columns: DataColumn<Waiting>[] = [
  { header: 'Place', className: 'ops-num', cell: (w) => w.position },
  { header: 'Client', cell: (w) => <Link to={opsClientPath(w.clientId)}>{w.clientName}</Link> },
  { header: 'Test', cell: (w) => w.testName },
  { header: 'Kind', className: 'portal-nowrap', cell: (w) => w.kind },
  { header: 'Starts', className: 'portal-nowrap', cell: (w) => startsText(w) },
];

/** The queue every client shares, in the order its tests start, each with about when (issue 39). */
export function WaitingTests({ system }: { system: OpsSystem }) {
  if (!system.waiting) return null;
  const more = system.queue.queued - system.waiting.length;
  return (
    <>
      <DataTable
        className="ops-table"
        caption="Queue: waiting tests in the order they start"
        columns={columns}
        rows={system.waiting}
        rowKey={(w) => w.runTestId}
        empty={<AsyncEmpty>No test is waiting.</AsyncEmpty>}
      />
      {more > 0 && <p className="portal-muted">And {more} more behind them.</p>}
    </>
  );
}
