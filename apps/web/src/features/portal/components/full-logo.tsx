import { Logo } from '@/components/logo.tsx';

/** The site's full logo (mark and wordmark), sized for the portal. */
export function FullLogo() {
  return (
    <span className="portal-logo">
      <Logo />
    </span>
  );
}
