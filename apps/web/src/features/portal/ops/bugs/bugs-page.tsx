import { bugStatus, opsBugPath } from '@fullstop/contracts';
import { useNavigate } from 'react-router';
import { PortalPage } from '../../components/portal-page.tsx';
import { BugFilters, useBugFilters } from '../../components/bugs/bug-filters.tsx';
import { BugTable } from '../../components/bugs/bug-table.tsx';
import { useGetBugClientsQuery, useGetBugsQuery } from '../../store/bugs-api.ts';
import { NewBugForm } from './new-bug-form.tsx';
import '../../components/bugs/bugs.css';

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
    <div className="portal-field">
      <label htmlFor="bug-filter-client">Client</label>
      <select id="bug-filter-client" value={values.clientId ?? ''} onChange={(e) => update('clientId', e.target.value)}>
        <option value="">All clients</option>
        {values.clientId && !clients.data?.clients.some((c) => c.id === values.clientId) && <option value={values.clientId}>{values.clientId}</option>}
        {(clients.data?.clients ?? []).map((client) => (
          <option key={client.id} value={client.id}>
            {client.clientName}
          </option>
        ))}
      </select>
    </div>
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
      {clients.isError && (
        <p className="portal-alert portal-alert--error" role="alert">
          The clients could not be loaded, so the client filter lists none.
        </p>
      )}
      {bugs.isLoading ? (
        <p className="portal-muted" role="status">
          Loading bugs…
        </p>
      ) : bugs.isError || !bugs.data ? (
        <p className="portal-alert portal-alert--error" role="alert">
          The bugs could not be loaded. Please try again in a moment.
        </p>
      ) : bugs.data.bugs.length === 0 ? (
        <p className="portal-empty">
          {filtered ? 'No bugs match these filters.' : 'No bugs yet. Write one from a failed test on the Runs page, or from manual testing here.'}
        </p>
      ) : (
        <BugTable bugs={bugs.data.bugs} hrefOf={opsBugPath} showClient />
      )}
    </PortalPage>
  );
}
