import { changePasswordRequest } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { describeError, http, HttpError } from '@/lib/http-client.ts';
import { SubmitRow } from '../components/busy-button.tsx';
import { CardForm } from '../components/card.tsx';
import { FormError } from '../components/form-error.tsx';
import { Notice } from '../components/notice.tsx';
import { PortalPage } from '../components/portal-page.tsx';
import { CurrentPasswordField, NewPasswordFields, NO_NEW_PASSWORD } from '../components/text-field.tsx';
import { useAppSelector } from '../store/hooks.ts';
import { failedField, newPasswordErrors } from './team-texts.ts';

const PASSWORD_LABELS = { password: 'New password (at least 10 characters)', confirm: 'Repeat the new password' };

type Errors = Partial<Record<'currentPassword' | 'newPassword' | 'confirm', string>>;

/** /dashboard/account: the signed-in user's details and a password change (which signs out their other sessions). */
export function AccountPage() {
  const user = useAppSelector((state) => state.session.userData);
  const [currentPassword, setCurrentPassword] = useState('');
  const [passwords, setPasswords] = useState(NO_NEW_PASSWORD);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(false);
    setFailure(null);
    const parsed = changePasswordRequest.safeParse({ currentPassword, newPassword: passwords.password });
    const next: Errors = newPasswordErrors(parsed.error?.issues ?? [], passwords, 'The two new passwords do not match.');
    setErrors(next);
    if (!parsed.success || next.confirm) return;
    setBusy(true);
    try {
      await http.changePassword(parsed.data);
      setCurrentPassword('');
      setPasswords(NO_NEW_PASSWORD);
      setDone(true);
    } catch (error) {
      if (error instanceof HttpError && failedField(error.responseText) === 'currentPassword') {
        setErrors({ currentPassword: describeError(error) });
      } else {
        setFailure(`Could not change your password: ${describeError(error, 'please try again later.')}`);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <PortalPage id="account-page-title" title="Your account">
      <div className="portal-stack">
        {user && (
          <dl className="portal-card portal-summary">
            <div>
              <dt>Name</dt>
              <dd>{user.username}</dd>
            </div>
            <div>
              <dt>E-mail</dt>
              <dd>{user.email}</dd>
            </div>
          </dl>
        )}
        <CardForm id="password-form-title" title="Change your password" onSubmit={onSubmit}>
          <p className="portal-muted">Your other sessions, on other devices or browsers, are signed out when it changes.</p>
          <CurrentPasswordField
            id="account-current-password"
            label="Current password"
            value={currentPassword}
            onValueChange={setCurrentPassword}
            error={errors.currentPassword}
          />
          <NewPasswordFields
            id="account-new"
            labels={PASSWORD_LABELS}
            value={passwords}
            onChange={setPasswords}
            errors={{ password: errors.newPassword, confirm: errors.confirm }}
          />
          <FormError message={failure} />
          {done && <Notice tone="success">Your password has been changed. Your other sessions have been signed out.</Notice>}
          <SubmitRow busy={busy} busyText="Saving…">Change password</SubmitRow>
        </CardForm>
      </div>
    </PortalPage>
  );
}
