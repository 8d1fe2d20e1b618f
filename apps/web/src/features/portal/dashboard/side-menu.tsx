import { NavLink } from 'react-router';
import { DASHBOARD_PAGES } from './dashboard-pages.ts';
import { LogoutButton } from './logout-button.tsx';
import { MenuIcon } from './menu-icon.tsx';

export const SIDE_MENU_ID = 'portal-sidemenu';

/**
 * The dashboard's side menu: a column beside the page on wide screens; on phones it folds behind the header's
 * menu button (`open`) and folds again after a choice (`onNavigate`).
 */
export function SideMenu({ open, onNavigate }: { open: boolean; onNavigate: () => void }) {
  return (
    <nav id={SIDE_MENU_ID} className={`portal-sidemenu${open ? ' portal-sidemenu--open' : ''}`} aria-label="Dashboard">
      <ul className="portal-sidemenu__list">
        {DASHBOARD_PAGES.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} className="portal-sidemenu__link" onClick={onNavigate}>
              <MenuIcon d={item.icon} />
              {item.label}
            </NavLink>
          </li>
        ))}
        <li>
          <LogoutButton className="portal-sidemenu__link portal-sidemenu__logout" />
        </li>
      </ul>
    </nav>
  );
}
