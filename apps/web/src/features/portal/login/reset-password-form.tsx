import { resetPasswordRequest } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { describeError } from '@/lib/http-client.ts';
import { NewPasswordFields, NO_NEW_PASSWORD } from '../components/text-field.tsx';
import { resetPassword } from './auth-api.ts';
import { AuthForm, useFormStatus } from './auth-form.tsx';
import { LOGIN_TEXT } from './login-messages.ts';

export const PASSWORDS_DIFFER = 'The two passwords do not match.';
const PASSWORD_LABELS = { password: 'New password', confirm: 'Repeat the new password' };

/** Reached from the link of a password-reset mail: a new password, set with the mail's single-use token. */
export function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const [passwords, setPasswords] = useState(NO_NEW_PASSWORD);
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const status = useFormStatus();
  const [done, setDone] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = resetPasswordRequest.safeParse({ token, password: passwords.password });
    const passwordError = parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === 'password')?.message;
    const confirmError = passwords.password === passwords.confirm ? undefined : PASSWORDS_DIFFER;
    setErrors({ password: passwordError, confirm: confirmError });
    if (!parsed.success || confirmError) return;
    await status.run(async () => {
      try {
        setDone(await resetPassword(parsed.data));
      } catch (failure) {
        status.setError(describeError(failure, LOGIN_TEXT.generic));
      }
    });
  }

  return (
    <AuthForm form="reset" onSubmit={onSubmit} status={status} onSecondary={onDone} popup={done ? { message: done, onClose: onDone } : null}>
      <NewPasswordFields id="reset" labels={PASSWORD_LABELS} value={passwords} onChange={setPasswords} errors={errors} />
    </AuthForm>
  );
}
