import { AsyncFailed, AsyncLoading } from '../../components/async-state.tsx';
import { useGetSuiteDiffQuery } from '../suites/suites-api.ts';

/** The lines of a unified diff as the Suites page's comparison shows them (its styles), without the file headers. */
function patchLines(patch: string): { kind: string; line: string }[] {
  return patch
    .replace(/\n$/, '')
    .split('\n')
    .filter((l, i) => !(i < 4 && /^(Index: |={10,}|--- |\+\+\+ )/.test(l)))
    .map((line) => ({ line, kind: line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx' }));
}

/** What the proposed version changes in the version the run ran: the Suites page's diff of the two, file by file. */
export function ProposalDiff({ clientId, from, to }: { clientId: string; from: number; to: number }) {
  const diff = useGetSuiteDiffQuery({ clientId, from, to });
  if (diff.isLoading) return <AsyncLoading>Comparing the versions…</AsyncLoading>;
  if (diff.isError || !diff.data) return <AsyncFailed>The change could not be loaded.</AsyncFailed>;
  return (
    <div className="ops-healing__diff">
      {diff.data.files.map((f) => (
        <div key={f.path} className="ops-suites__change">
          <p className="ops-suites__change-title portal-mono">{f.path}</p>
          {f.patch === null ? (
            <p className="portal-muted">This change is too large to show here.</p>
          ) : (
            <pre className="ops-suites__code ops-suites__patch" tabIndex={0} aria-label={`The change to ${f.path}`}>
              {patchLines(f.patch).map(({ kind, line }, i) => (
                <span key={i} className={`ops-suites__line ops-suites__line--${kind}`}>
                  {line}
                  {'\n'}
                </span>
              ))}
            </pre>
          )}
        </div>
      ))}
    </div>
  );
}
