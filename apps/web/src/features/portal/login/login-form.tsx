import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { storeLogin } from '@/lib/auth-storage.ts';
import { captchaMatches, generateCaptcha } from '@/lib/captcha.ts';
import { CaptchaField } from '../components/captcha-field.tsx';
import { FormError } from '../components/form-error.tsx';
import { Popup } from '../components/popup.tsx';
import { TextField } from '../components/text-field.tsx';
import { useAppDispatch, useAppSelector } from '../store/hooks.ts';
import { loggedIn, loginFailed } from '../store/session-slice.ts';
import { login } from './auth-api.ts';
import { CAPTCHA_AFTER_FAILURES, LOGIN_TEXT, loginErrorMessage, validateLogin, type LoginFieldErrors } from './login-messages.ts';

export function LoginForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const failedLogins = useAppSelector((state) => state.session.failedLogins);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [captcha, setCaptcha] = useState(() => generateCaptcha());
  const [captchaInput, setCaptchaInput] = useState('');
  const [fieldErrors, setFieldErrors] = useState<LoginFieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [succeeded, setSucceeded] = useState(false);
  const captchaRequired = failedLogins >= CAPTCHA_AFTER_FAILURES;

  const newCaptcha = () => {
    setCaptcha(generateCaptcha());
    setCaptchaInput('');
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors = validateLogin(email, password);
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    if (captchaRequired && !captchaMatches(captchaInput, captcha)) {
      setError(LOGIN_TEXT.captchaMismatch);
      newCaptcha();
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      const session = await login({ email: email.trim(), password });
      storeLogin(session);
      dispatch(loggedIn(session));
      setSucceeded(true);
    } catch (failure) {
      dispatch(loginFailed());
      setError(loginErrorMessage(failure));
      newCaptcha();
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <>
      <form className="portal-form" onSubmit={onSubmit} noValidate aria-label="User Login">
        <TextField
          id="login-email"
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldErrors.email}
          required
        />
        <TextField
          id="login-password"
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldErrors.password}
          required
        />
        {captchaRequired && (
          <CaptchaField id="login-captcha" code={captcha} value={captchaInput} onChange={setCaptchaInput} onRefresh={newCaptcha} />
        )}
        <FormError message={error} />
        <button type="submit" className="btn btn--primary portal-btn-block" disabled={submitting}>
          {submitting ? 'Logging in…' : 'Login'}
        </button>
        <button type="button" className="portal-link-button" onClick={onForgotPassword}>
          Forgot Password?
        </button>
        <p className="portal-auth__aside">
          Don&apos;t have an account? <Link to={`${paths.contactUs}#form-section`}>Register</Link>
        </p>
      </form>
      {succeeded && <Popup message={LOGIN_TEXT.success} onClose={() => navigate(paths.dashboard)} />}
    </>
  );
}
