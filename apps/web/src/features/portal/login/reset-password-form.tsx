import { resetPasswordRequest } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { HttpError } from '@/lib/http-client.ts';
import { FormError } from '../components/form-error.tsx';
import { Popup } from '../components/popup.tsx';
import { TextField } from '../components/text-field.tsx';
import { resetPassword } from './auth-api.ts';
import { LOGIN_TEXT } from './login-messages.ts';

export const PASSWORDS_DIFFER = 'The two passwords do not match.';

/** Reached from the link of a password-reset mail: a new password, set with the mail's single-use token. */
export function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = resetPasswordRequest.safeParse({ token, password });
    const passwordError = parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === 'password')?.message;
    const confirmError = password === confirm ? undefined : PASSWORDS_DIFFER;
    setErrors({ password: passwordError, confirm: confirmError });
    if (!parsed.success || confirmError) return;
    setError(null);
    setSubmitting(true);
    try {
      setDone(await resetPassword(parsed.data));
    } catch (failure) {
      setError(failure instanceof HttpError && failure.serverMessage ? failure.serverMessage : LOGIN_TEXT.generic);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <>
      <form className="portal-form" onSubmit={onSubmit} noValidate aria-label="Set a new password">
        <p className="portal-auth__hint">Choose a new password of at least 10 characters.</p>
        <TextField
          id="reset-password"
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
        <TextField
          id="reset-confirm"
          label="Repeat the new password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={errors.confirm}
        />
        <FormError message={error} />
        <button type="submit" className="btn btn--primary portal-btn-block" disabled={submitting}>
          {submitting ? 'Saving…' : 'Set New Password'}
        </button>
        <button type="button" className="portal-link-button" onClick={onDone}>
          Back
        </button>
      </form>
      {done && <Popup message={done} onClose={onDone} />}
    </>
  );
}
