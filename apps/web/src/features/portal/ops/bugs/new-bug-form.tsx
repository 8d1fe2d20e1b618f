import { skipToken } from '@reduxjs/toolkit/query/react';
import type { Bug, BugPrefill, ClientSummary } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { AsyncFailed, AsyncLoading } from '../../components/async-state.tsx';
import { SOURCE_LABELS, failureField, failureMessage } from '../../components/bugs/bug-labels.ts';
import { CardForm } from '../../components/card.tsx';
import { FormError } from '../../components/form-error.tsx';
import { useCreateBugMutation, useGetBugPrefillQuery } from '../../store/bugs-api.ts';
import { BugFieldsForm, EMPTY_FIELDS, checkFieldValues, fieldValuesOf, formFieldOf, type BugFieldErrors, type BugFieldValues } from './bug-fields-form.tsx';

interface NewBugFormProps {
  clients: ClientSummary[];
  /** From the address: the Runs page's "Create bug" names the client, the run test and the rule. */
  clientId?: string | undefined;
  runTestId?: string | undefined;
  ruleId?: string | undefined;
  onCancel: () => void;
  onCreated: (bug: Bug) => void;
}

/**
 * A new bug for a client: from a run test's evidence (prefilled, its evidence attached on saving) or from
 * scratch (manual testing). It is kept as a draft, or published to the client at once.
 */
export function NewBugForm({ clients, clientId: initialClient, runTestId, ruleId, onCancel, onCreated }: NewBugFormProps) {
  const [clientId, setClientId] = useState(initialClient ?? '');
  const [values, setValues] = useState<BugFieldValues>(EMPTY_FIELDS);
  const [errors, setErrors] = useState<BugFieldErrors>({});
  const [clientError, setClientError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [filledFrom, setFilledFrom] = useState<BugPrefill | null>(null);
  const fromEvidence = Boolean(runTestId);
  const prefill = useGetBugPrefillQuery(clientId && runTestId ? { clientId, runTestId, ruleId } : skipToken);
  const [create, createState] = useCreateBugMutation();

  // The evidence's fields arrive once: they fill the form, which the operator then edits.
  if (prefill.data && prefill.data !== filledFrom) {
    setFilledFrom(prefill.data);
    setValues(fieldValuesOf(prefill.data));
  }

  async function save(publish: boolean) {
    setFormError(null);
    if (!clientId) {
      setClientError('Choose the client this bug is for.');
      return;
    }
    const fields = checkFieldValues(values, setErrors);
    if (!fields) return;
    try {
      const bug = await create({
        clientId,
        body: {
          ...fields,
          source: prefill.data?.source ?? 'manual',
          ...(runTestId ? { runTestId } : {}),
          ...(ruleId ? { ruleId } : {}),
          publish,
        },
      }).unwrap();
      onCreated(bug);
    } catch (error) {
      const field = failureField(error);
      const message = failureMessage(error);
      if (field && field !== 'runTestId' && field !== 'ruleId' && field !== 'source') setErrors({ [formFieldOf(field)]: message });
      else setFormError(`Could not save the bug: ${message}`);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void save(false);
  }

  return (
    <CardForm id="new-bug-heading" title={fromEvidence ? 'New bug from a failed test' : 'Write a bug'} className="bug-form bug-new" onSubmit={onSubmit}>
      <div className="portal-field">
        <label htmlFor="new-bug-client">Client</label>
        <select
          id="new-bug-client"
          value={clientId}
          disabled={fromEvidence && Boolean(initialClient)}
          aria-invalid={Boolean(clientError)}
          aria-describedby={clientError ? 'new-bug-client-error' : undefined}
          onChange={(e) => {
            setClientId(e.target.value);
            setClientError(null);
          }}
        >
          <option value="">Choose a client</option>
          {clientId && !clients.some((c) => c.id === clientId) && <option value={clientId}>{clientId}</option>}
          {clients.map((client) => (
            <option key={client.id} value={client.id}>
              {client.clientName}
            </option>
          ))}
        </select>
        {clientError && (
          <p id="new-bug-client-error" className="portal-field__error">
            {clientError}
          </p>
        )}
      </div>

      {fromEvidence &&
        (prefill.isLoading || prefill.isFetching ? (
          <AsyncLoading>Reading the test's evidence…</AsyncLoading>
        ) : prefill.isError ? (
          <AsyncFailed>The evidence could not be read ({failureMessage(prefill.error)}). You can still write the bug by hand.</AsyncFailed>
        ) : prefill.data ? (
          <div className="portal-alert portal-alert--info bug-form__prefill">
            <p>
              Prefilled from the evidence ({SOURCE_LABELS[prefill.data.source]}
              {prefill.data.ruleId ? `, rule ${prefill.data.ruleId}` : ''}).{' '}
              {prefill.data.evidence.length === 0 ? 'No evidence will be attached.' : 'This evidence will be attached:'}
            </p>
            {prefill.data.evidence.length > 0 && (
              <ul className="bug-form__evidence">
                {prefill.data.evidence.map((item) => (
                  <li key={`${item.kind}-${item.name}`}>
                    {item.name} <span className="portal-muted">({item.kind})</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        ) : null)}

      <BugFieldsForm idPrefix="new-bug" values={values} errors={errors} onChange={setValues} />
      <FormError message={formError} />
      <div className="portal-actions">
        <button type="submit" className="btn btn--ghost" disabled={createState.isLoading}>
          Save as draft
        </button>
        <button type="button" className="btn btn--primary" disabled={createState.isLoading} onClick={() => void save(true)}>
          Publish to the client
        </button>
        <button type="button" className="portal-link-button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </CardForm>
  );
}
