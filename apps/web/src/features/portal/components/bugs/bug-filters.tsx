import { bugSeverity, bugStatus, type BugSeverity, type BugStatus } from '@fullstop/contracts';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { SEVERITY_LABELS, STATUS_LABELS } from './bug-labels.ts';

export interface BugFilterValues {
  status: BugStatus | undefined;
  severity: BugSeverity | undefined;
  clientId: string | undefined;
}

/** The list's filters live in the address (?status=…&severity=…&clientId=…), so a filtered list can be shared. */
export function useBugFilters() {
  const [params, setParams] = useSearchParams();
  const status = bugStatus.safeParse(params.get('status'));
  const severity = bugSeverity.safeParse(params.get('severity'));
  const values: BugFilterValues = {
    status: status.success ? status.data : undefined,
    severity: severity.success ? severity.data : undefined,
    clientId: params.get('clientId') || undefined,
  };
  const update = (name: keyof BugFilterValues, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
  return { values, update, params, setParams };
}

interface BugFiltersProps {
  values: BugFilterValues;
  onChange: (name: keyof BugFilterValues, value: string) => void;
  /** Statuses to offer: the console also offers Draft. */
  statuses: readonly BugStatus[];
  /** The console's client select, before the others. */
  before?: ReactNode;
}

export function BugFilters({ values, onChange, statuses, before }: BugFiltersProps) {
  return (
    <form className="bug-filters" aria-label="Filter bugs" onSubmit={(e) => e.preventDefault()}>
      {before}
      <div className="portal-field">
        <label htmlFor="bug-filter-status">Status</label>
        <select id="bug-filter-status" value={values.status ?? ''} onChange={(e) => onChange('status', e.target.value)}>
          <option value="">All statuses</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="portal-field">
        <label htmlFor="bug-filter-severity">Severity</label>
        <select id="bug-filter-severity" value={values.severity ?? ''} onChange={(e) => onChange('severity', e.target.value)}>
          <option value="">All severities</option>
          {bugSeverity.options.map((s) => (
            <option key={s} value={s}>
              {SEVERITY_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
