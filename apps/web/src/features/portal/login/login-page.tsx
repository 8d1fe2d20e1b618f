import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { portalPageTitle, usePageTitle } from '@/components/page-title.ts';
import { LOGIN_PARAMS, safeNext, SESSION_ENDED } from '@/lib/login-redirect.ts';
import { Notice } from '../components/notice.tsx';
import { AuthCard } from './auth-card.tsx';
import { ForgotPasswordForm } from './forgot-password-form.tsx';
import { LoginForm } from './login-form.tsx';
import { LOGIN_TITLES } from './login-titles.ts';
import { ResetPasswordForm } from './reset-password-form.tsx';

type Mode = { name: 'login' | 'forgot' } | { name: 'reset'; token: string };

/** Shown above the form when the HTTP client sent the user here because their session ended. */
export const SESSION_ENDED_TEXT = 'Your session has ended. Please log in again.';

/**
 * /login: the User Login form, or the Forgot Password form in its place. A password-reset mail links here with
 * ?resetToken=...: the token is taken into the page and dropped from the address, so it stays out of the
 * history and of any Referer. ?next=/dashboard/... is where a successful login returns to (a portal page only),
 * and ?session=ended says why the user is here.
 */
export function LoginPage() {
  const [params, setParams] = useSearchParams();
  const [mode, setMode] = useState<Mode>(() => {
    const token = params.get(LOGIN_PARAMS.resetToken);
    return token ? { name: 'reset', token } : { name: 'login' };
  });
  const [next] = useState(() => safeNext(params.get(LOGIN_PARAMS.next)));
  const [sessionEnded] = useState(() => params.get(LOGIN_PARAMS.session) === SESSION_ENDED);
  const hasToken = params.has(LOGIN_PARAMS.resetToken);
  usePageTitle(LOGIN_TITLES[mode.name], portalPageTitle);
  useEffect(() => {
    if (hasToken) setParams({}, { replace: true });
  }, [hasToken, setParams]);
  const toLogin = () => setMode({ name: 'login' });
  return (
    <div className="portal-auth">
      <AuthCard title={LOGIN_TITLES[mode.name]}>
        {sessionEnded && mode.name === 'login' && (
          <Notice tone="info">{SESSION_ENDED_TEXT}</Notice>
        )}
        {mode.name === 'login' && <LoginForm next={next} onForgotPassword={() => setMode({ name: 'forgot' })} />}
        {mode.name === 'forgot' && <ForgotPasswordForm onBack={toLogin} />}
        {mode.name === 'reset' && <ResetPasswordForm token={mode.token} onDone={toLogin} />}
      </AuthCard>
    </div>
  );
}
