import type { ReactNode } from 'react';

/** One fact: what it is and its value; `className` styles the value (a figure, a warning). */
export interface DataFact {
  term: string;
  value: ReactNode;
  className?: string;
}

/** Facts as a description list, each term beside its value. */
export function DataFacts({ className, facts }: { className: string; facts: readonly DataFact[] }) {
  return (
    <dl className={className}>
      {facts.map((fact) => (
        <div key={fact.term}>
          <dt>{fact.term}</dt>
          <dd className={fact.className}>{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}
