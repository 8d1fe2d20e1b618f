import { useSearchParams } from 'react-router';
import { AsyncEmpty, AsyncFailed, AsyncLoading } from '../../components/async-state.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import { HealingProposals } from '../healing/healing-proposals.tsx';
import { SuiteDiffView } from './suite-diff.tsx';
import { SuiteFiles } from './suite-files.tsx';
import { SuiteImportForm } from './suite-import.tsx';
import { SuiteVersions } from './suite-versions.tsx';
import { useGetSuiteClientsQuery, useGetSuiteVersionsQuery } from './suites-api.ts';
import './suites.css';

/**
 * The console's Suites page: a client's suite versions (the current one marked), their files, a diff between two,
 * an import from a folder or a zip, a trial run of any version and the switch of the current one. `?clientId=`
 * picks the client (and `?version=` the version whose files are shown).
 */
export function OpsSuitesPage() {
  const [params, setParams] = useSearchParams();
  const clients = useGetSuiteClientsQuery();
  const clientId = params.get('clientId') ?? '';
  const versions = useGetSuiteVersionsQuery(clientId, { skip: !clientId });
  const list = versions.data?.versions ?? [];
  const chosen = Number(params.get('version')) || list.find((v) => v.current)?.version || list[0]?.version || 0;

  const update = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v) p.set(k, v);
      else p.delete(k);
    }
    setParams(p, { replace: true });
  };

  return (
    <PortalPage id="ops-suites-page-title" title="Suites">
      <div className="ops-suites">
        <div className="portal-field ops-suites__client">
          <label htmlFor="ops-suites-client">Client</label>
          <select id="ops-suites-client" value={clientId} onChange={(e) => update({ clientId: e.target.value, version: null })}>
            <option value="">Choose a client…</option>
            {(clients.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.clientName} ({c.website})
              </option>
            ))}
          </select>
          {clients.isError && (
            <AsyncFailed>The clients could not be loaded. Please reload the page.</AsyncFailed>
          )}
        </div>

        {!clientId ? (
          <AsyncEmpty>Choose a client to see its suite versions.</AsyncEmpty>
        ) : versions.isLoading ? (
          <AsyncLoading>Loading the suite versions…</AsyncLoading>
        ) : versions.isError ? (
          <AsyncFailed>The suite versions could not be loaded. Please reload the page.</AsyncFailed>
        ) : (
          <>
            <SuiteVersions clientId={clientId} versions={list} shown={chosen} onShow={(v) => update({ version: String(v) })} />
            {chosen > 0 && <SuiteFiles key={`${clientId}-${chosen}`} clientId={clientId} version={chosen} />}
            <HealingProposals clientId={clientId} />
            {list.length > 1 && <SuiteDiffView key={clientId} clientId={clientId} versions={list} />}
            <SuiteImportForm clientId={clientId} hasCurrent={list.some((v) => v.current)} />
          </>
        )}
      </div>
    </PortalPage>
  );
}
