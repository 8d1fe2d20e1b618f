import { NavLink } from 'react-router';
import { LogoutButton } from './logout-button.tsx';
import { MenuIcon } from './menu-icon.tsx';

export const SIDE_MENU_ID = 'portal-sidemenu';

/** One entry of a side menu: where it goes, its label and its icon (an SVG path). */
export interface MenuPage {
  to: string;
  label: string;
  icon: string;
  /** Matches only its own path, not the paths under it (a console's home). */
  end?: boolean;
}

/**
 * A side menu (the dashboard's, the console's): a column beside the page on wide screens; on phones it folds
 * behind the header's menu button (`open`) and folds again after a choice (`onNavigate`).
 */
export function SideMenu({ pages, label, open, onNavigate }: { pages: readonly MenuPage[]; label: string; open: boolean; onNavigate: () => void }) {
  return (
    <nav id={SIDE_MENU_ID} className={`portal-sidemenu${open ? ' portal-sidemenu--open' : ''}`} aria-label={label}>
      <ul className="portal-sidemenu__list">
        {pages.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={item.end} className="portal-sidemenu__link" onClick={onNavigate}>
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
