import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { LOGIN_PARAMS, loginUrl, safeNext } from '@/lib/login-redirect.ts';
import { isAuthenticated } from '@/lib/session-flag.ts';
import { routeTitle as page } from './components/route-title.ts';

// The only portal code in the main bundle: two guards reading one stored flag. Everything else is lazy.
// A signed-in user at /login goes to the page a `next` names (a portal page only), or to the dashboard.
function guestsOnly({ request }: LoaderFunctionArgs) {
  if (!isAuthenticated()) return null;
  return redirect(safeNext(new URL(request.url).searchParams.get(LOGIN_PARAMS.next)) ?? paths.dashboard);
}

// A visitor without a session goes to /login, which brings them back here once they have logged in.
function clientsOnly({ request }: LoaderFunctionArgs) {
  if (isAuthenticated()) return null;
  const url = new URL(request.url);
  return redirect(loginUrl({ next: `${url.pathname}${url.search}` }));
}

/** A route inside the portal's shell: the store and styles every portal page shares, loaded with the first of them. */
const inShell = (route: RouteObject): RouteObject[] => [
  { lazy: async () => ({ Component: (await import('./portal-shell.tsx')).PortalShell }), children: [route] },
];

/** /login, inside the marketing header and footer. */
export const portalRoutes = inShell({
  path: paths.login,
  loader: guestsOnly,
  lazy: async () => ({ Component: (await import('./login/login-page.tsx')).LoginPage }),
});

/** /dashboard/*: the client portal in its own shell (logo, user, side menu), behind the guard. */
export const dashboardRoutes = inShell({
  path: paths.dashboard,
  loader: clientsOnly,
  lazy: async () => ({ Component: (await import('./dashboard/dashboard-layout.tsx')).DashboardLayout }),
  children: [
    { index: true, ...page('Dashboard'), lazy: async () => ({ Component: (await import('./dashboard/dashboard-home.tsx')).DashboardHome }) },
    { path: 'insights', ...page('Insights'), lazy: async () => ({ Component: (await import('./insights/insights-page.tsx')).InsightsPage }) },
    { path: 'setup', ...page('Setup'), lazy: async () => ({ Component: (await import('./setup/setup-page.tsx')).SetupPage }) },
    { path: 'tests', ...page('Tests'), lazy: async () => ({ Component: (await import('./tests/tests-page.tsx')).TestsPage }) },
    { path: 'reports', ...page('Reports'), lazy: async () => ({ Component: (await import('./reports/reports-page.tsx')).ReportsPage }) },
    { path: 'requests', ...page('Requests'), lazy: async () => ({ Component: (await import('./requests/requests-page.tsx')).RequestsPage }) },
    { path: 'history', ...page('History'), lazy: async () => ({ Component: (await import('./history/history-page.tsx')).HistoryPage }) },
    { path: 'history/:runId', ...page('Run'), lazy: async () => ({ Component: (await import('./history/run-detail-page.tsx')).RunDetailPage }) },
    // Any other /dashboard path is still behind the guard, then says it does not exist.
    {
      path: '*',
      ...page('Page not found'),
      lazy: async () => ({ Component: (await import('./dashboard/dashboard-not-found.tsx')).DashboardNotFound }),
    },
  ],
});
