import { paths } from '@/config/paths.ts';
import { AppLayout } from '../components/app-layout.tsx';
import { OPS_PAGES } from './ops-pages.ts';

const banner = () => <p className="portal-dashboard__welcome">Fullstop QA console: every client&apos;s data, each access audited</p>;

/** The operators' console: the portal's shell with the console's own menu. */
export function OpsLayout() {
  return <AppLayout pages={OPS_PAGES} label="Console" home={paths.ops} account={paths.opsAccount} title="Console" banner={banner} />;
}
