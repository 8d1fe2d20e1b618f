import { Outlet } from 'react-router';
import { FullLogo } from '../components/full-logo.tsx';
import { useAppSelector } from '../store/hooks.ts';
import { SideMenu } from './side-menu.tsx';

export function DashboardLayout() {
  const username = useAppSelector((state) => state.session.userData?.username ?? '');
  return (
    <div className="portal-dashboard">
      <header className="portal-dashboard__top">
        <FullLogo />
        <p className="portal-dashboard__welcome">Welcome to your Dashboard, {username}</p>
      </header>
      <div className="portal-dashboard__body">
        <SideMenu />
        <div className="portal-dashboard__main">
          <Outlet />
        </div>
      </div>
    </div>
  );
}
