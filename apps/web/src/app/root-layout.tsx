import { Outlet } from 'react-router';
import { Footer } from '@/components/footer.tsx';
import { Header } from '@/components/header.tsx';
import { SiteFrame } from './app-frame.tsx';

/** The public site's frame (and /login's): the marketing header and footer around the page. */
export function RootLayout() {
  return (
    <SiteFrame>
      <Header />
      <main id="main" className="site-main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </SiteFrame>
  );
}
