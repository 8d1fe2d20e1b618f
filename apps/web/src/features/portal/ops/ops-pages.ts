import { paths } from '@/config/paths.ts';

/** The console's pages, in its side menu's order. */
export const OPS_PAGES = [
  { to: paths.opsClients, label: 'Clients', icon: 'M16 11a4 4 0 10-8 0 4 4 0 008 0zM4 21a8 8 0 0116 0' },
  { to: paths.opsRuns, label: 'Runs', icon: 'M5 4l14 8-14 8z' },
  { to: paths.opsBugs, label: 'Bugs', icon: 'M8 6a4 4 0 018 0v1H8zM6 9h12v5a6 6 0 01-12 0zM3 12h3m12 0h3M4 18l2.5-1.5M20 18l-2.5-1.5' },
  { to: paths.opsManual, label: 'Manual work', icon: 'M9 4h6v3H9zM6 6h12v15H6zM9 12l2 2 4-4M9 17h6' },
  { to: paths.opsRequests, label: 'Requests', icon: 'M4 5h16v11H8l-4 4zM8 9h8M8 12h5' },
  { to: paths.opsSuites, label: 'Suites', icon: 'M4 6h16M4 12h16M4 18h10' },
  { to: paths.opsSystem, label: 'System', icon: 'M4 4h16v6H4zM4 14h16v6H4zM8 7h.01M8 17h.01' },
  { to: paths.opsAudit, label: 'Audit log', icon: 'M7 3h10v18H7zM10 8h4M10 12h4M10 16h2' },
  { to: paths.opsAccount, label: 'Your account', icon: 'M12 12a4 4 0 100-8 4 4 0 000 8zM4 21a8 8 0 0116 0' },
] as const;
