import { useState, type FormEvent } from 'react';
import { captchaMatches, generateCaptcha } from '@/lib/captcha.ts';
import { CaptchaField } from '../components/captcha-field.tsx';
import { FormError } from '../components/form-error.tsx';
import { Popup } from '../components/popup.tsx';
import { TextField } from '../components/text-field.tsx';
import { requestPasswordReset } from './auth-api.ts';
import { LOGIN_TEXT } from './login-messages.ts';

/** Forgot Password: its own captcha from the start; the same confirmation whether or not the account exists. */
export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState('');
  const [captcha, setCaptcha] = useState(() => generateCaptcha());
  const [captchaInput, setCaptchaInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);

  const newCaptcha = () => {
    setCaptcha(generateCaptcha());
    setCaptchaInput('');
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!email.trim()) {
      setError(LOGIN_TEXT.emailMissing);
      return;
    }
    if (!captchaMatches(captchaInput, captcha)) {
      setError(LOGIN_TEXT.captchaMismatch);
      newCaptcha();
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      await requestPasswordReset(email.trim());
    } catch (failure) {
      // The confirmation never says whether the account exists, so a failure changes nothing the user sees.
      console.error('Password reset request failed', failure);
    } finally {
      setSubmitting(false);
      setSent(true);
    }
  }

  return (
    <>
      <form className="portal-form" onSubmit={onSubmit} noValidate aria-label="Forgot Password">
        <p className="portal-auth__hint">Enter the email of your account and we will send you instructions.</p>
        <TextField
          id="forgot-email"
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <CaptchaField id="forgot-captcha" code={captcha} value={captchaInput} onChange={setCaptchaInput} onRefresh={newCaptcha} />
        <FormError message={error} />
        <button type="submit" className="btn btn--primary portal-btn-block" disabled={submitting}>
          {submitting ? 'Sending…' : 'Reset Password'}
        </button>
        <button type="button" className="portal-link-button" onClick={onBack}>
          Back
        </button>
      </form>
      {sent && <Popup message={LOGIN_TEXT.resetSent} onClose={onBack} />}
    </>
  );
}
