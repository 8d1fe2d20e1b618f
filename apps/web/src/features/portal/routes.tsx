import { redirect, type RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { isAuthenticated } from '@/lib/auth-storage.ts';

// The only portal code in the main bundle: two guards reading one stored flag. Everything else is lazy.
const guestsOnly = () => (isAuthenticated() ? redirect(paths.dashboard) : null);
const clientsOnly = () => (isAuthenticated() ? null : redirect(paths.login));

export const portalRoutes: RouteObject[] = [
  {
    lazy: async () => ({ Component: (await import('./portal-shell.tsx')).PortalShell }),
    children: [
      {
        path: paths.login,
        loader: guestsOnly,
        lazy: async () => ({ Component: (await import('./login/login-page.tsx')).LoginPage }),
      },
      {
        path: paths.dashboard,
        loader: clientsOnly,
        lazy: async () => ({ Component: (await import('./dashboard/dashboard-layout.tsx')).DashboardLayout }),
        children: [
          { index: true, lazy: async () => ({ Component: (await import('./dashboard/dashboard-home.tsx')).DashboardHome }) },
          { path: 'insights', lazy: async () => ({ Component: (await import('./insights/insights-page.tsx')).InsightsPage }) },
          { path: 'setup', lazy: async () => ({ Component: (await import('./setup/setup-page.tsx')).SetupPage }) },
          { path: 'tests', lazy: async () => ({ Component: (await import('./tests/tests-page.tsx')).TestsPage }) },
          { path: 'reports', lazy: async () => ({ Component: (await import('./reports/reports-page.tsx')).ReportsPage }) },
          { path: 'requests', lazy: async () => ({ Component: (await import('./requests/requests-page.tsx')).RequestsPage }) },
          // Any other /dashboard path is still behind the guard, then says it does not exist.
          { path: '*', lazy: async () => ({ Component: (await import('./dashboard/dashboard-not-found.tsx')).DashboardNotFound }) },
        ],
      },
    ],
  },
];
