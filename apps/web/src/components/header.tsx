import { useEffect, useId, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { paths } from '@/config/paths.ts';
import { isAuthenticated } from '@/lib/session-flag.ts';
import { Logo } from './logo.tsx';
import { MAIN_LINKS } from './site-links.ts';


/** Reads the stored flag after mount (never during render) so prerendered HTML hydrates without a mismatch. */
function useAuthenticated(): boolean {
  const { key } = useLocation();
  const [authenticated, setAuthenticated] = useState(false);
  useEffect(() => {
    setAuthenticated(isAuthenticated());
    const onStorage = () => setAuthenticated(isAuthenticated());
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [key]);
  return authenticated;
}

export function Header() {
  const [open, setOpen] = useState(false);
  const authenticated = useAuthenticated();
  const menuId = useId();
  // A click on a menu link toggles the menu, as the spec says; in practice it closes the open mobile menu.
  const toggle = () => setOpen((o) => !o);
  const onLinkClick = () => {
    if (open) toggle();
  };

  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <Link to={paths.home} className="logo" aria-label="Fullstop QA home">
          <Logo title="Fullstop QA" />
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={toggle}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
        <nav id={menuId} className={`site-nav${open ? ' site-nav--open' : ''}`} aria-label="Main">
          <ul className="site-nav__list">
            {MAIN_LINKS.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end className="site-nav__link" onClick={onLinkClick}>
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li>
              {authenticated ? (
                <NavLink to={paths.dashboard} className="site-nav__link site-nav__link--cta" onClick={onLinkClick}>
                  Dashboard
                </NavLink>
              ) : (
                <NavLink to={paths.login} className="site-nav__link site-nav__link--cta" onClick={onLinkClick}>
                  Login
                </NavLink>
              )}
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
