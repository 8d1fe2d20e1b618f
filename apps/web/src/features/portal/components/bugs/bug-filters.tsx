import { bugSeverity, bugStatus, type BugSeverity, type BugStatus } from '@fullstop/contracts';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { filterOptions, FilterSelect } from '../filter-select.tsx';
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
  const filters = [
    { name: 'status', label: 'Status', all: 'All statuses', options: filterOptions(statuses, STATUS_LABELS) },
    { name: 'severity', label: 'Severity', all: 'All severities', options: filterOptions(bugSeverity.options, SEVERITY_LABELS) },
  ] as const;
  return (
    <form className="bug-filters" aria-label="Filter bugs" onSubmit={(e) => e.preventDefault()}>
      {before}
      {filters.map(({ name, ...filter }) => (
        <FilterSelect key={name} id={`bug-filter-${name}`} value={values[name] ?? ''} onChange={(value) => onChange(name, value)} {...filter} />
      ))}
    </form>
  );
}
