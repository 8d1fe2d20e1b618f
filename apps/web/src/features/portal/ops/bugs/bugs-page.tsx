import { bugStatus, opsBugPath } from '@fullstop/contracts';
import { useNavigate } from 'react-router';
import { AsyncFailed, AsyncState } from '../../components/async-state.tsx';
import { BugFilters, useBugFilters } from '../../components/bugs/bug-filters.tsx';
import { BugTable } from '../../components/bugs/bug-table.tsx';
import '../../components/bugs/bugs.css';
import { clientOptions, FilterSelect } from '../../components/filter-select.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import { useGetBugClientsQuery, useGetBugsQuery } from '../../store/bugs-api.ts';
import { NewBugForm } from './new-bug-form.tsx';

/** The address's keys of the New bug form (the Runs page's "Create bug" links here with them). */
const NEW_KEYS = ['new', 'runTestId', 'ruleId'] as const;

/**
 * Every client's bugs, narrowed by client, status and severity; "Write a bug" opens the New bug form, which
 * ?new=1&clientId=…&runTestId=…&ruleId=… opens prefilled from a failed test's evidence.
 */
export function OpsBugsPage() {
  const navigate = useNavigate();
  const { values, update, params, setParams } = useBugFilters();
  const clients = useGetBugClientsQuery();
  const bugs = useGetBugsQuery({ side: 'operator', ...values }, { refetchOnMountOrArgChange: true });
  const creating = params.get('new') === '1';
  const filtered = Boolean(values.status || values.severity || values.clientId);

  const closeForm = () => {
    const next = new URLSearchParams(params);
    for (const key of NEW_KEYS) next.delete(key);
    setParams(next);
  };
  const openForm = () => {
    const next = new URLSearchParams(params);
    next.set('new', '1');
    setParams(next);
  };

  const clientSelect = (
    <FilterSelect id="bug-filter-client" label="Client" all="All clients" options={clientOptions(clients.data?.clients)} keepUnknown
      value={values.clientId ?? ''} onChange={(clientId) => update('clientId', clientId)} />
  );

  return (
    <PortalPage id="ops-bugs-page-title" title="Bugs">
      {creating && (
        <NewBugForm
          // A new piece of evidence starts a new form; the list's client filter below leaves what was typed alone.
          key={`${params.get('runTestId') ?? ''}-${params.get('ruleId') ?? ''}`}
          clients={clients.data?.clients ?? []}
          clientId={values.clientId}
          runTestId={params.get('runTestId') || undefined}
          ruleId={params.get('ruleId') || undefined}
          onCancel={closeForm}
          onCreated={(bug) => void navigate(opsBugPath(bug.id))}
        />
      )}
      <div className="bug-toolbar">
        <BugFilters values={values} onChange={update} statuses={bugStatus.options} before={clientSelect} />
        {!creating && (
          <button type="button" className="btn btn--primary" onClick={openForm}>
            Write a bug
          </button>
        )}
      </div>
      {clients.isError && <AsyncFailed>The clients could not be loaded, so the client filter lists none.</AsyncFailed>}
      <AsyncState
        query={bugs}
        loading="Loading bugs…"
        failed="The bugs could not be loaded. Please try again in a moment."
        empty={filtered ? 'No bugs match these filters.' : 'No bugs yet. Write one from a failed test on the Runs page, or from manual testing here.'}
        isEmpty={(data) => data.bugs.length === 0}
      >
        {(data) => <BugTable bugs={data.bugs} hrefOf={opsBugPath} showClient />}
      </AsyncState>
    </PortalPage>
  );
}
