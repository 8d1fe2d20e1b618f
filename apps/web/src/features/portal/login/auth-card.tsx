import type { ReactNode } from 'react';
import { FullLogo } from '../components/full-logo.tsx';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="portal-auth__card" aria-labelledby="auth-title">
      <FullLogo />
      <h1 id="auth-title" className="portal-auth__title">
        {title}
      </h1>
      {children}
    </section>
  );
}
