import { paths, type Bug } from '@fullstop/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { FormError } from '../../components/form-error.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import { failureField, failureMessage } from '../../components/bugs/bug-labels.ts';
import { BugView, bugHeading } from '../../components/bugs/bug-view.tsx';
import { useBugHandlers } from '../../components/bugs/use-bug-handlers.ts';
import { useGetBugClientsQuery, useGetBugQuery, useUpdateBugMutation } from '../../store/bugs-api.ts';
import { BugFieldsForm, fieldValuesOf, formFieldOf, parseFieldValues, type BugFieldErrors } from './bug-fields-form.tsx';

/** An operator edits a bug's fields, in any status. */
function EditBugForm({ bug, onDone }: { bug: Bug; onDone: () => void }) {
  const [values, setValues] = useState(() => fieldValuesOf(bug));
  const [errors, setErrors] = useState<BugFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [update, state] = useUpdateBugMutation();

  async function save() {
    setFormError(null);
    const parsed = parseFieldValues(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    try {
      await update({ id: bug.id, body: parsed.fields }).unwrap();
      onDone();
    } catch (error) {
      const field = failureField(error);
      if (field) setErrors({ [formFieldOf(field)]: failureMessage(error) });
      else setFormError(`Could not save the changes: ${failureMessage(error)}`);
    }
  }

  return (
    <form
      className="bug-form bug-edit"
      aria-label="Edit the bug"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <BugFieldsForm idPrefix="edit-bug" values={values} errors={errors} onChange={setValues} />
      <FormError message={formError} />
      <div className="portal-actions">
        <button type="submit" className="btn btn--primary portal-btn-sm" disabled={state.isLoading}>
          {state.isLoading ? 'Saving…' : 'Save changes'}
        </button>
        <button type="button" className="btn btn--ghost portal-btn-sm" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One bug in the console: the shared view, with its fields to edit, publish, verify or reopen a retest. */
export function OpsBugPage() {
  const { bugId = '' } = useParams();
  const bug = useGetBugQuery({ side: 'operator', id: bugId }, { refetchOnMountOrArgChange: true });
  const handlers = useBugHandlers('operator', bugId);
  const clients = useGetBugClientsQuery();
  const [editing, setEditing] = useState(false);
  const data = bug.data;
  const clientName = data ? clients.data?.clients.find((c) => c.id === data.clientId)?.clientName : undefined;
  const notFound = bug.isError && 'status' in bug.error && bug.error.status === 404;

  return (
    <PortalPage id="ops-bug-page-title" title={data ? bugHeading(data) : 'Bug'}>
      <p className="bug-back">
        <Link to={paths.opsBugs}>← All bugs</Link>
      </p>
      {bug.isLoading ? (
        <p className="portal-muted" role="status">
          Loading the bug…
        </p>
      ) : notFound ? (
        <p className="portal-empty">There is no such bug.</p>
      ) : bug.isError || !data ? (
        <p className="portal-alert portal-alert--error" role="alert">
          This bug could not be loaded: {failureMessage(bug.error)}
        </p>
      ) : (
        <BugView
          key={data.id}
          bug={data}
          side="operator"
          clientName={clientName ?? data.clientId}
          controls={
            editing ? (
              <EditBugForm bug={data} onDone={() => setEditing(false)} />
            ) : (
              <div className="portal-actions">
                <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => setEditing(true)}>
                  Edit details
                </button>
              </div>
            )
          }
          {...handlers}
        />
      )}
    </PortalPage>
  );
}
