import type { SuiteFileChange, SuiteVersionSummary } from '@fullstop/contracts';
import { useState } from 'react';
import { AsyncFailed, AsyncLoading } from '../../components/async-state.tsx';
import { Card } from '../../components/card.tsx';
import { useGetSuiteDiffQuery } from './suites-api.ts';
// Its own look wherever it is shown (the Suites page, a client's starter-suite card).
import './suites.css';

const STATUS_LABELS: Record<SuiteFileChange['status'], string> = { added: 'Added', removed: 'Removed', changed: 'Changed' };

/** A unified diff, one line each: additions green, removals red, hunk headers muted (as text, never HTML). */
function Patch({ patch }: { patch: string }) {
  // The two file headers ("Index", "===", "---", "+++") say what the card's title already does.
  const lines = patch.replace(/\n$/, '').split('\n').filter((l, i) => !(i < 4 && /^(Index: |={10,}|--- |\+\+\+ )/.test(l)));
  return (
    <pre className="ops-suites__code ops-suites__patch" tabIndex={0}>
      {lines.map((line, i) => {
        const kind = line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx';
        return (
          <span key={i} className={`ops-suites__line ops-suites__line--${kind}`}>
            {line}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}

/** What changed between two chosen versions, file by file. */
export function SuiteDiffView({ clientId, versions }: { clientId: string; versions: SuiteVersionSummary[] }) {
  const [from, setFrom] = useState(versions[1]?.version ?? 0);
  const [to, setTo] = useState(versions[0]?.version ?? 0);
  const diff = useGetSuiteDiffQuery({ clientId, from, to }, { skip: !from || !to || from === to });

  const select = (id: string, label: string, value: number, set: (v: number) => void) => (
    <div className="portal-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => set(Number(e.target.value))}>
        {versions.map((v) => (
          <option key={v.version} value={v.version}>
            Version {v.version}
            {v.current ? ' (current)' : ''}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <Card id="ops-suites-diff-title" title="Compare versions">
      <div className="ops-suites__diff-pick">
        {select('ops-suites-from', 'From', from, setFrom)}
        {select('ops-suites-to', 'To', to, setTo)}
      </div>
      {from === to ? (
        <p className="portal-muted">Choose two different versions.</p>
      ) : diff.isFetching ? (
        <AsyncLoading>Comparing…</AsyncLoading>
      ) : diff.isError ? (
        <AsyncFailed>The versions could not be compared.</AsyncFailed>
      ) : diff.data ? (
        <div className="portal-stack">
          <p className="portal-muted">
            {diff.data.files.length === 0 ? 'The two versions hold the same files.' : `${diff.data.files.length} changed, ${diff.data.unchanged} unchanged.`}
          </p>
          {diff.data.files.map((f) => (
            <article key={f.path} className="ops-suites__change">
              <h3 className="ops-suites__change-title">
                <span className={`ops-suites__status ops-suites__status--${f.status}`}>{STATUS_LABELS[f.status]}</span>{' '}
                <span className="portal-mono">{f.path}</span>
              </h3>
              {f.binary ? (
                <p className="portal-muted">Binary file: its content is not compared line by line.</p>
              ) : f.patch === null ? (
                <p className="portal-muted">This change is too large to show here.</p>
              ) : (
                <>
                  <Patch patch={f.patch} />
                  {f.truncated && <p className="portal-muted">The rest of this change is too large to show here.</p>}
                </>
              )}
            </article>
          ))}
        </div>
      ) : null}
    </Card>
  );
}
