import { useState, type FormEvent } from 'react';
import { CaptchaField } from '../components/captcha-field.tsx';
import { requestPasswordReset } from './auth-api.ts';
import { AuthForm, EmailField, useFormStatus } from './auth-form.tsx';
import { LOGIN_TEXT } from './login-messages.ts';
import { useCaptcha } from './use-captcha.ts';

/** Forgot Password: its own captcha from the start; the same confirmation whether or not the account exists. */
export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState('');
  const captcha = useCaptcha();
  const status = useFormStatus();
  const [sent, setSent] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!email.trim()) return status.setError(LOGIN_TEXT.emailMissing);
    if (!captcha.verify()) return status.setError(LOGIN_TEXT.captchaMismatch);
    await status.run(() =>
      // The confirmation never says whether the account exists, so a failure changes nothing the user sees.
      requestPasswordReset(email.trim()).catch((failure: unknown) => console.error('Password reset request failed', failure)),
    );
    setSent(true);
  }

  return (
    <AuthForm form="forgot" onSubmit={onSubmit} status={status} onSecondary={onBack} popup={sent ? { message: LOGIN_TEXT.resetSent, onClose: onBack } : null}>
      <EmailField id="forgot-email" value={email} onValueChange={setEmail} />
      <CaptchaField id="forgot-captcha" code={captcha.code} value={captcha.input} onChange={captcha.setInput} onRefresh={captcha.renew} />
    </AuthForm>
  );
}
