import type { BugList } from '@fullstop/contracts';
import { Link } from 'react-router';
import { formatRunDate } from '@/lib/format-date.ts';
import { SeverityBadge, StatusBadge } from './bug-badges.tsx';
import { bugNumber } from './bug-labels.ts';

interface BugTableProps {
  bugs: BugList['bugs'];
  /** The address of one bug: the portal's or the console's. */
  hrefOf: (id: string) => string;
  /** The console shows whose bug it is. */
  showClient?: boolean;
}

/** The bugs, newest first: a table on wide screens, one card per bug on phones. */
export function BugTable({ bugs, hrefOf, showClient = false }: BugTableProps) {
  return (
    <table className="bug-table">
      <caption className="visually-hidden">Bugs, newest first: {bugs.length} shown</caption>
      <thead>
        <tr>
          <th scope="col">Bug</th>
          {showClient && <th scope="col">Client</th>}
          <th scope="col">Severity</th>
          <th scope="col">Status</th>
          <th scope="col">Test</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {bugs.map((bug) => (
          <tr key={bug.id}>
            <td data-label="Bug">
              <Link to={hrefOf(bug.id)} className="bug-table__link">
                <span className="bug-table__number">{bugNumber(bug.number)}</span>
                <span className="bug-table__title">{bug.title}</span>
              </Link>
            </td>
            {showClient && <td data-label="Client">{bug.clientName ?? '—'}</td>}
            <td data-label="Severity">
              <SeverityBadge severity={bug.severity} />
            </td>
            <td data-label="Status">
              <StatusBadge status={bug.status} />
            </td>
            <td data-label="Test" className="bug-break">
              {bug.testName ?? '—'}
            </td>
            <td data-label="Updated">{formatRunDate(bug.updatedAt, '—')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
