import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { CookieConsent } from '@/components/cookie-consent.tsx';
import { Footer } from '@/components/footer.tsx';
import { Header } from '@/components/header.tsx';
import { ScrollManager } from '@/components/scroll-manager.tsx';

export function RootLayout() {
  // Marks the page interactive (hydrated or rendered): tests and monitors wait for it instead of guessing.
  useEffect(() => {
    document.documentElement.dataset.appReady = 'true';
  }, []);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <ScrollManager />
      <Header />
      <main id="main" className="site-main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <CookieConsent />
    </>
  );
}
