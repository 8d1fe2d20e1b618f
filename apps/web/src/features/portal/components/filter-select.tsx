/** One choice in a filter: the value the address keeps and the words the user reads. */
export interface FilterOption {
  value: string;
  label: string;
}

interface FilterSelectProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The first choice, which filters nothing ("All clients"). */
  all: string;
  options: readonly FilterOption[];
  /** A value from the address that the choices do not hold (yet) stays selected and shown as it is. */
  keepUnknown?: boolean;
}

/** A labelled select in a filter bar; the empty value shows everything. */
export function FilterSelect({ id, label, value, onChange, all, options, keepUnknown = false }: FilterSelectProps) {
  const unknown = keepUnknown && value !== '' && !options.some((o) => o.value === value);
  return (
    <div className="portal-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{all}</option>
        {unknown && <option value={value}>{value}</option>}
        <SelectOptions options={options} />
      </select>
    </div>
  );
}

/** The `<option>`s of a select, in their order; any select may use it, not only a filter. */
export function SelectOptions({ options }: { options: readonly FilterOption[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ));
}

/** The choices of a fixed list of values, worded by a table of labels. */
export function filterOptions<V extends string>(values: readonly V[], labels: Record<V, string>): FilterOption[] {
  return values.map((value) => ({ value, label: labels[value] }));
}

/** The choices of a client filter. */
export function clientOptions(clients: readonly { id: string; clientName: string }[] = []): FilterOption[] {
  return clients.map((c) => ({ value: c.id, label: c.clientName }));
}
