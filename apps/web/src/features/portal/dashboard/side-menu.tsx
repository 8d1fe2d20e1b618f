import { useState } from 'react';
import { NavLink } from 'react-router';
import { paths } from '@/config/paths.ts';
import { useAppDispatch } from '../store/hooks.ts';
import { logout } from './logout.ts';

const ITEMS = [
  { to: paths.insights, label: 'Insights', icon: 'M4 19V9m6 10V5m6 14v-7m4 7H2' },
  { to: paths.setup, label: 'Setup', icon: 'M12 15a3 3 0 100-6 3 3 0 000 6zm7.4-3a7.4 7.4 0 00-.1-1.2l2-1.6-2-3.4-2.4 1a7.6 7.6 0 00-2-1.2L14.5 2h-4l-.4 2.6a7.6 7.6 0 00-2 1.2l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 000 2.4l-2 1.6 2 3.4 2.4-1a7.6 7.6 0 002 1.2l.4 2.6h4l.4-2.6a7.6 7.6 0 002-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z' },
  { to: paths.tests, label: 'Tests', icon: 'M9 3h6M10 3v6l-5 9a2 2 0 002 3h10a2 2 0 002-3l-5-9V3' },
  { to: paths.reports, label: 'Reports', icon: 'M7 3h7l5 5v13H7zM14 3v5h5M10 13h6M10 17h6' },
  { to: paths.requests, label: 'Requests', icon: 'M4 5h16v11H8l-4 4zM8 9h8M8 12h5' },
] as const;

function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The dashboard's side menu; on phones it folds behind a Menu button and folds again after a choice. */
export function SideMenu() {
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  return (
    <nav className={`portal-sidemenu${open ? ' portal-sidemenu--open' : ''}`} aria-label="Dashboard">
      <button
        type="button"
        className="portal-sidemenu__toggle"
        aria-expanded={open}
        aria-controls="portal-sidemenu-list"
        onClick={() => setOpen((v) => !v)}
      >
        <Icon d={open ? 'M6 6l12 12M18 6L6 18' : 'M4 7h16M4 12h16M4 17h16'} />
        Dashboard menu
      </button>
      <ul id="portal-sidemenu-list" className="portal-sidemenu__list">
        {ITEMS.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} className="portal-sidemenu__link" onClick={() => setOpen(false)}>
              <Icon d={item.icon} />
              {item.label}
            </NavLink>
          </li>
        ))}
        <li>
          <button
            type="button"
            className="portal-sidemenu__link portal-sidemenu__logout"
            disabled={leaving}
            onClick={() => {
              setLeaving(true);
              void logout(dispatch);
            }}
          >
            <Icon d="M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10" />
            Logout
          </button>
        </li>
      </ul>
    </nav>
  );
}
