import { historyRunPath, type AlertRef, type RunComparison } from '@fullstop/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { Card } from '../components/card.tsx';

type Tone = 'bad' | 'good' | 'warn';

interface ChangeListProps<T> {
  title: string;
  items: T[];
  tone: Tone;
  keyOf: (item: T) => string;
  line: (item: T) => ReactNode;
}

/** One list of changes, left out when empty: its title with a count, then one line per item. */
function ChangeList<T>({ title, items, tone, keyOf, line }: ChangeListProps<T>) {
  if (items.length === 0) return null;
  return (
    <div className={`history-change history-change--${tone}`}>
      <h3 className="history-change__title">
        {title} <span className="history-count">({items.length})</span>
      </h3>
      <ul>
        {items.map((item) => (
          <li key={keyOf(item)}>{line(item)}</li>
        ))}
      </ul>
    </div>
  );
}

function TestList({ title, names, tone }: { title: string; names: string[]; tone: Tone }) {
  return <ChangeList title={title} items={names} tone={tone} keyOf={(name) => name} line={(name) => name} />;
}

function AlertList({ title, alerts, tone }: { title: string; alerts: AlertRef[]; tone: Tone }) {
  return (
    <ChangeList
      title={title}
      items={alerts}
      tone={tone}
      keyOf={(a) => `${a.testName}|${a.ruleId}|${a.url ?? ''}|${a.param ?? ''}`}
      line={(a) => (
        <>
          <span className={`history-risk history-risk--${a.risk.toLowerCase()}`}>{a.risk}</span> {a.name}
          {(a.url || a.param) && (
            <span className="history-alert-where">
              {a.url}
              {a.param ? ` (${a.param})` : ''}
            </span>
          )}
        </>
      )}
    />
  );
}

/** "What changed since the previous run": tests that flipped or kept failing, alerts that came or went. */
export function RunChanges({ comparison }: { comparison: RunComparison }) {
  const c = comparison;
  const nothing = [c.newlyFailing, c.fixed, c.stillFailing, c.newAlerts, c.resolvedAlerts].every((list) => list.length === 0);
  return (
    <Card id="history-changes-title" title="What changed since the previous run" className="history-section">
      {!c.previousRunId ? (
        <p className="portal-muted">No earlier run of these tests to compare with.</p>
      ) : (
        <>
          <p className="portal-muted history-compared">
            Compared with <Link to={historyRunPath(c.previousRunId)}>the run of {formatDate(c.previousRunAt)}</Link>.
          </p>
          {nothing ? (
            <p>Nothing changed: every test has the same result as before, and no alert came or went.</p>
          ) : (
            <div className="history-changes">
              <TestList title="Newly failing" names={c.newlyFailing} tone="bad" />
              <TestList title="Fixed" names={c.fixed} tone="good" />
              <TestList title="Still failing" names={c.stillFailing} tone="warn" />
              <AlertList title="New alerts" alerts={c.newAlerts} tone="bad" />
              <AlertList title="Resolved alerts" alerts={c.resolvedAlerts} tone="good" />
            </div>
          )}
        </>
      )}
    </Card>
  );
}
