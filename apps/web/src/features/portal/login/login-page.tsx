import { useState } from 'react';
import { AuthCard } from './auth-card.tsx';
import { ForgotPasswordForm } from './forgot-password-form.tsx';
import { LoginForm } from './login-form.tsx';

/** /login: the User Login form, or the Forgot Password form in its place. */
export function LoginPage() {
  const [mode, setMode] = useState<'login' | 'forgot'>('login');
  return (
    <div className="portal-auth">
      <AuthCard title={mode === 'login' ? 'User Login' : 'Forgot Password'}>
        {mode === 'login' ? (
          <LoginForm onForgotPassword={() => setMode('forgot')} />
        ) : (
          <ForgotPasswordForm onBack={() => setMode('login')} />
        )}
      </AuthCard>
    </div>
  );
}
