import { useEffect, useState, type ReactNode } from 'react';
import { Link, Outlet } from 'react-router';
import { Logo } from '@/components/logo.tsx';
import { portalPageTitle, usePageTitle } from '@/components/page-title.ts';
import { useAppSelector } from '../store/hooks.ts';
import { MenuIcon } from './menu-icon.tsx';
import { useRouteTitle } from './route-title.ts';
import { type MenuPage, SIDE_MENU_ID, SideMenu } from './side-menu.tsx';

const MENU_ICON = 'M4 7h16M4 12h16M4 17h16';
const CLOSE_ICON = 'M6 6l12 12M18 6L6 18';

interface AppLayoutProps {
  /** The side menu's entries and its accessible name ("Dashboard", "Console"). */
  pages: readonly MenuPage[];
  label: string;
  /** Where the logo leads. */
  home: string;
  /** The signed-in user's account page (password change), where their name leads. */
  account: string;
  /** The tab title when the page declares none. */
  title: string;
  /** A line above every page (the dashboard's welcome). */
  banner?: (username: string) => ReactNode;
}

/**
 * The portal's application shell (the client's dashboard, the operators' console): one header (the menu button
 * on phones, the logo, the user), the side menu (with the one Logout, as the spec has it) and the page. No marketing header or footer: these are
 * applications, not pages of the site.
 */
export function AppLayout({ pages, label, home, account, title, banner }: AppLayoutProps) {
  const user = useAppSelector((state) => state.session.userData);
  const username = user?.username ?? '';
  const [menuOpen, setMenuOpen] = useState(false);
  usePageTitle(useRouteTitle(title), portalPageTitle);
  // An open menu on a phone closes with Escape, as a click beside it (on the backdrop) does.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  return (
    <div className="portal-app">
      <header className="portal-topbar">
        <button
          type="button"
          className="portal-topbar__menu"
          aria-expanded={menuOpen}
          aria-controls={SIDE_MENU_ID}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <MenuIcon d={menuOpen ? CLOSE_ICON : MENU_ICON} />
          <span className="visually-hidden">{label} menu</span>
        </button>
        <Link to={home} className="portal-topbar__brand" onClick={() => setMenuOpen(false)}>
          <Logo />
        </Link>
        <div className="portal-topbar__user">
          <span className="portal-topbar__avatar" aria-hidden="true">
            {username.charAt(0).toUpperCase() || '?'}
          </span>
          <Link to={account} className="portal-topbar__who" title="Your account: change your password">
            <span className="portal-topbar__name">{username}</span>
            {user?.email && <span className="portal-topbar__email">{user.email}</span>}
          </Link>
        </div>
      </header>
      <div className="portal-dashboard">
        {menuOpen && <div className="portal-menu-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
        <SideMenu pages={pages} label={label} open={menuOpen} onNavigate={() => setMenuOpen(false)} />
        <main id="main" className="portal-dashboard__main" tabIndex={-1}>
          {banner?.(username)}
          <Outlet />
        </main>
      </div>
    </div>
  );
}
