import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AuthCard } from './auth-card.tsx';
import { ForgotPasswordForm } from './forgot-password-form.tsx';
import { LoginForm } from './login-form.tsx';
import { ResetPasswordForm } from './reset-password-form.tsx';

type Mode = { name: 'login' } | { name: 'forgot' } | { name: 'reset'; token: string };

const TITLES: Record<Mode['name'], string> = {
  login: 'User Login',
  forgot: 'Forgot Password',
  reset: 'Set a New Password',
};

/**
 * /login: the User Login form, or the Forgot Password form in its place. A password-reset mail links here with
 * ?resetToken=...: the token is taken into the page and dropped from the address, so it stays out of the
 * history and of any Referer.
 */
export function LoginPage() {
  const [params, setParams] = useSearchParams();
  const [mode, setMode] = useState<Mode>(() => {
    const token = params.get('resetToken');
    return token ? { name: 'reset', token } : { name: 'login' };
  });
  const hasToken = params.has('resetToken');
  useEffect(() => {
    if (hasToken) setParams({}, { replace: true });
  }, [hasToken, setParams]);
  const toLogin = () => setMode({ name: 'login' });
  return (
    <div className="portal-auth">
      <AuthCard title={TITLES[mode.name]}>
        {mode.name === 'login' && <LoginForm onForgotPassword={() => setMode({ name: 'forgot' })} />}
        {mode.name === 'forgot' && <ForgotPasswordForm onBack={toLogin} />}
        {mode.name === 'reset' && <ResetPasswordForm token={mode.token} onDone={toLogin} />}
      </AuthCard>
    </div>
  );
}
