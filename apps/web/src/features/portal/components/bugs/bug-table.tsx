import type { BugList } from '@fullstop/contracts';
import { Link } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { DataTable, type DataColumn } from '../data-table.tsx';
import { SeverityBadge, StatusBadge } from './bug-badges.tsx';
import { bugNumber } from './bug-labels.ts';

interface BugTableProps {
  bugs: BugList['bugs'];
  /** The address of one bug: the portal's or the console's. */
  hrefOf: (id: string) => string;
  /** The console shows whose bug it is. */
  showClient?: boolean;
}

type BugRow = BugList['bugs'][number];

const CLIENT_COLUMN: DataColumn<BugRow> = { header: 'Client', cell: (bug) => bug.clientName ?? '—' };

/** The bugs, newest first: a table on wide screens, one card per bug on phones. */
export function BugTable({ bugs, hrefOf, showClient = false }: BugTableProps) {
  const columns: DataColumn<BugRow>[] = [
    {
      header: 'Bug',
      cell: (bug) => (
        <Link to={hrefOf(bug.id)} className="bug-table__link">
          <span className="bug-table__number">{bugNumber(bug.number)}</span>
          <span className="bug-table__title">{bug.title}</span>
        </Link>
      ),
    },
    ...(showClient ? [CLIENT_COLUMN] : []),
    { header: 'Severity', cell: (bug) => <SeverityBadge severity={bug.severity} /> },
    { header: 'Status', cell: (bug) => <StatusBadge status={bug.status} /> },
    { header: 'Test', cell: (bug) => bug.testName ?? '—', className: 'bug-break' },
    { header: 'Updated', cell: (bug) => formatDate(bug.updatedAt, '—') },
  ];
  return <DataTable className="bug-table" caption={`Bugs, newest first: ${bugs.length} shown`} columns={columns} rows={bugs} rowKey={(bug) => bug.id} />;
}
