import { Outlet } from 'react-router';
import type { ReactNode } from 'react';
import { useAppReady } from '@/components/app-ready.ts';
import { CookieConsent } from '@/components/cookie-consent.tsx';
import { ScrollManager } from '@/components/scroll-manager.tsx';

/** What every page of the site shares: the skip link, scrolling on navigation, the cookie notice, the ready mark. */
export function SiteFrame({ children }: { children: ReactNode }) {
  useAppReady();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <ScrollManager />
      {children}
      <CookieConsent />
    </>
  );
}

/**
 * The frame of the client portal's dashboard: the site's frame without the marketing header and footer; the
 * dashboard brings its own shell.
 */
export function AppFrame() {
  return (
    <SiteFrame>
      <Outlet />
    </SiteFrame>
  );
}
