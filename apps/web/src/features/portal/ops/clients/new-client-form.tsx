import { newClientBody } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import { BusyButton } from '../../components/busy-button.tsx';
import { CardForm } from '../../components/card.tsx';
import { FormError } from '../../components/form-error.tsx';
import { PasswordField, TextField } from '../../components/text-field.tsx';
import { useCreateOpsClientMutation } from '../ops-api.ts';
import { fieldErrors, type FieldErrors } from './field-errors.ts';

type Field = 'name' | 'website' | 'email' | 'username' | 'password';

/** Onboarding, as `fullstop client create` does it: the client, its first user and its API key (shown masked). */
export function NewClientForm({ onDone }: { onDone: () => void }) {
  const [values, setValues] = useState<Record<Field, string>>({ name: '', website: '', email: '', username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; apiKeyMasked: string } | null>(null);
  const [create, { isLoading }] = useCreateOpsClientMutation();
  const set = (field: Field) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = newClientBody.safeParse({ ...values, username: values.username || undefined });
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error.issues));
      return;
    }
    setErrors({});
    setFailure(null);
    try {
      const answer = await create(parsed.data).unwrap();
      setCreated({ name: parsed.data.name, apiKeyMasked: answer.apiKeyMasked });
      setValues({ name: '', website: '', email: '', username: '', password: '' });
    } catch (error) {
      setFailure(`The client could not be created: ${failureMessage(error)}`);
    }
  }

  if (created) {
    return (
      <div className="portal-card" role="status">
        <h2 className="portal-card__title">Client created</h2>
        <p>
          <span className="ops-wrap">{created.name}</span> is ready. Its API key: <code className="portal-mono">{created.apiKeyMasked}</code> (the client reads it whole in its portal).
        </p>
        <div className="portal-actions">
          <button type="button" className="btn btn--primary portal-btn-sm" onClick={onDone}>
            Done
          </button>
        </div>
      </div>
    );
  }

  return (
    <CardForm id="ops-new-client-title" title="New client" onSubmit={onSubmit}>
      <FormError message={failure} />
      <div className="portal-grid-2">
        <TextField id="ops-client-name" label="Company name" value={values.name} onChange={(e) => set('name')(e.target.value)} error={errors.name} />
        <TextField id="ops-client-website" label="Website" type="url" placeholder="https://shop.example.com" value={values.website} onChange={(e) => set('website')(e.target.value)} error={errors.website} />
        <TextField id="ops-client-email" label="First user's email" type="email" autoComplete="off" value={values.email} onChange={(e) => set('email')(e.target.value)} error={errors.email} />
        <TextField id="ops-client-username" label="First user's name (optional)" value={values.username} onChange={(e) => set('username')(e.target.value)} error={errors.username} />
        <PasswordField id="ops-client-password" label="First user's password" autoComplete="new-password" value={values.password} onValueChange={set('password')} error={errors.password} />
      </div>
      <div className="portal-actions">
        <BusyButton busy={isLoading} busyText="Creating…">Create client</BusyButton>
        <button type="button" className="btn btn--ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </CardForm>
  );
}
