import { newUserBody, type OpsClientUser } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import { BusyButton } from '../../components/busy-button.tsx';
import { Card } from '../../components/card.tsx';
import { Notice, type NoticeText } from '../../components/notice.tsx';
import { PasswordField, TextField } from '../../components/text-field.tsx';
import { useCreateOpsUserMutation } from '../ops-api.ts';
import { fieldErrors, type FieldErrors } from './field-errors.ts';

type Field = 'email' | 'username' | 'password';

/** The client's users, and a form that adds one (POST /operator/users). */
export function ClientUsers({ clientId, users }: { clientId: string; users: OpsClientUser[] }) {
  const [values, setValues] = useState<Record<Field, string>>({ email: '', username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [notice, setNotice] = useState<NoticeText | null>(null);
  const [create, { isLoading }] = useCreateOpsUserMutation();
  const set = (field: Field) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = newUserBody.safeParse({ clientId, role: 'client', email: values.email, password: values.password, username: values.username || undefined });
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error.issues));
      setNotice(null);
      return;
    }
    setErrors({});
    try {
      await create({ ...parsed.data, clientId }).unwrap();
      setNotice({ tone: 'success', text: `${parsed.data.email} can now sign in.` });
      setValues({ email: '', username: '', password: '' });
    } catch (error) {
      setNotice({ tone: 'error', text: `The user could not be added: ${failureMessage(error)}` });
    }
  }

  return (
    <Card id="ops-users-title" title="Users">
      {users.length === 0 ? (
        <p className="portal-muted">No users yet.</p>
      ) : (
        <ul className="ops-list">
          {users.map((u) => (
            <li key={u.id}>
              <span className="ops-wrap">
                {u.name}
                <span className="ops-muted">{u.email}</span>
              </span>
              <span className="portal-badge">{u.role}</span>
            </li>
          ))}
        </ul>
      )}
      <form className="portal-form" onSubmit={onSubmit} noValidate aria-label="Add a user" style={{ marginTop: 20 }}>
        {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
        <div className="portal-grid-2">
          <TextField id="ops-user-email" label="Email" type="email" autoComplete="off" value={values.email} onChange={(e) => set('email')(e.target.value)} error={errors.email} />
          <TextField id="ops-user-name" label="Name (optional)" value={values.username} onChange={(e) => set('username')(e.target.value)} error={errors.username} />
          <PasswordField id="ops-user-password" label="Password" autoComplete="new-password" value={values.password} onValueChange={set('password')} error={errors.password} />
        </div>
        <div className="portal-actions">
          <BusyButton busy={isLoading} busyText="Adding…" className="btn btn--primary portal-btn-sm">Add user</BusyButton>
        </div>
      </form>
    </Card>
  );
}
