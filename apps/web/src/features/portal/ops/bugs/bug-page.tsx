import { paths, type Bug } from '@fullstop/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { AsyncState } from '../../components/async-state.tsx';
import { failureField, failureMessage } from '../../components/bugs/bug-labels.ts';
import { BugView, bugHeading } from '../../components/bugs/bug-view.tsx';
import { useBugHandlers } from '../../components/bugs/use-bug-handlers.ts';
import { BusyButton } from '../../components/busy-button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { PortalPage } from '../../components/portal-page.tsx';
import { useGetBugClientsQuery, useGetBugQuery, useUpdateBugMutation } from '../../store/bugs-api.ts';
import { BugFieldsForm, checkFieldValues, fieldValuesOf, formFieldOf, type BugFieldErrors } from './bug-fields-form.tsx';

/** An operator edits a bug's fields, in any status. */
function EditBugForm({ bug, onDone }: { bug: Bug; onDone: () => void }) {
  const [values, setValues] = useState(() => fieldValuesOf(bug));
  const [errors, setErrors] = useState<BugFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [update, state] = useUpdateBugMutation();

  async function save() {
    setFormError(null);
    const fields = checkFieldValues(values, setErrors);
    if (!fields) return;
    try {
      await update({ id: bug.id, body: fields }).unwrap();
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
        <BusyButton busy={state.isLoading} busyText="Saving…" className="btn btn--primary portal-btn-sm">Save changes</BusyButton>
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

  return (
    <PortalPage id="ops-bug-page-title" title={bug.data ? bugHeading(bug.data) : 'Bug'}>
      <p className="bug-back">
        <Link to={paths.opsBugs}>← All bugs</Link>
      </p>
      <AsyncState query={bug} loading="Loading the bug…" missing="There is no such bug." failed={<>This bug could not be loaded: {failureMessage(bug.error)}</>}>
        {(data) => (
          <BugView
            key={data.id}
            bug={data}
            side="operator"
            clientName={clients.data?.clients.find((c) => c.id === data.clientId)?.clientName ?? data.clientId}
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
      </AsyncState>
    </PortalPage>
  );
}
