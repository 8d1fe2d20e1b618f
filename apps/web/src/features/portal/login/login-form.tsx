import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useHydrated } from '@/components/use-hydrated.ts';
import { paths } from '@/config/paths.ts';
import { http } from '@/lib/http-client.ts';
import { CaptchaField } from '../components/captcha-field.tsx';
import { CurrentPasswordField } from '../components/text-field.tsx';
import { useAppDispatch, useAppSelector } from '../store/hooks.ts';
import { loggedIn, loginFailed } from '../store/session-slice.ts';
import { AuthForm, EmailField, useFormStatus } from './auth-form.tsx';
import { CAPTCHA_AFTER_FAILURES, LOGIN_TEXT, loginErrorMessage, validateLogin, type LoginFieldErrors } from './login-messages.ts';
import { useCaptcha } from './use-captcha.ts';

/** `next`: the portal page to open after the login (already checked to be one), the dashboard when null. */
export function LoginForm({ onForgotPassword, next = null }: { onForgotPassword: () => void; next?: string | null }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const failedLogins = useAppSelector((state) => state.session.failedLogins);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const captcha = useCaptcha();
  const [fieldErrors, setFieldErrors] = useState<LoginFieldErrors>({});
  const status = useFormStatus();
  const [succeeded, setSucceeded] = useState(false);
  const captchaRequired = failedLogins >= CAPTCHA_AFTER_FAILURES;
  // The build prerenders this form: what is typed before hydration would not reach its state (see useHydrated).
  const hydrated = useHydrated();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors = validateLogin(email, password);
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    if (captchaRequired && !captcha.verify()) return status.setError(LOGIN_TEXT.captchaMismatch);
    await status.run(async () => {
      try {
        const session = await http.startSession({ email: email.trim(), password });
        dispatch(loggedIn(session.userData));
        setSucceeded(true);
      } catch (failure) {
        dispatch(loginFailed());
        status.setError(loginErrorMessage(failure));
        captcha.renew();
      }
    });
  }

  return (
    <AuthForm
      form="login"
      onSubmit={onSubmit}
      status={status}
      onSecondary={onForgotPassword}
      aside={
        <p className="portal-auth__aside">
          Don&apos;t have an account? <Link to={`${paths.contactUs}#form-section`}>Register</Link>
        </p>
      }
      popup={succeeded ? { message: LOGIN_TEXT.success, onClose: () => navigate(next ?? paths.dashboard) } : null}
    >
      <EmailField id="login-email" value={email} onValueChange={setEmail} error={fieldErrors.email} readOnly={!hydrated} required />
      <CurrentPasswordField
        id="login-password"
        label="Password"
        name="password"
        value={password}
        onValueChange={setPassword}
        error={fieldErrors.password}
        readOnly={!hydrated}
        required
      />
      {captchaRequired && (
        <CaptchaField id="login-captcha" code={captcha.code} value={captcha.input} onChange={captcha.setInput} onRefresh={captcha.renew} />
      )}
    </AuthForm>
  );
}
