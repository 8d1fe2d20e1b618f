import { paths } from '@/config/paths.ts';
import { AppLayout } from '../components/app-layout.tsx';
import { DASHBOARD_PAGES } from './dashboard-pages.ts';

const welcome = (username: string) => <p className="portal-dashboard__welcome">Welcome to your Dashboard, {username}</p>;

/** The client portal's shell: the spec's side menu (then ours) and its welcome line above every page. */
export function DashboardLayout() {
  return <AppLayout pages={DASHBOARD_PAGES} label="Dashboard" home={paths.dashboard} account={paths.account} title="Dashboard" banner={welcome} />;
}
