import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { loginUrl } from '@/lib/login-redirect.ts';
import { isAuthenticated, storedRole } from '@/lib/session-flag.ts';
import { routeTitle as page } from './components/route-title.ts';
import { inShell } from './routes.tsx';

// The client portal's and the console's route tables, out of the main bundle: a visitor of the public pages never
// downloads them (app/router.tsx loads this module with the first /dashboard or /ops page, APP_PATHS).

/** Both apps' /account: a user changes their own password there. */
const accountRoute: RouteObject = { path: 'account', ...page('Your account'), lazy: async () => ({ Component: (await import('./team/account-page.tsx')).AccountPage }) };

/** Any other path of either app is still behind its guard, then says it does not exist. */
const notFoundRoute: RouteObject = {
  path: '*',
  ...page('Page not found'),
  lazy: async () => ({ Component: (await import('./dashboard/dashboard-not-found.tsx')).DashboardNotFound }),
};

// A visitor without a session goes to /login, which brings them back here once they have logged in.
function signedIn(request: Request): Response | null {
  if (isAuthenticated()) return null;
  const url = new URL(request.url);
  return redirect(loginUrl({ next: `${url.pathname}${url.search}` }));
}

// The portal is the client's: an operator who lands on it goes to the console.
function clientsOnly({ request }: LoaderFunctionArgs) {
  return signedIn(request) ?? (storedRole() === 'operator' ? redirect(paths.ops) : null);
}

// The console is the operators': a client never opens it (the API refuses its calls, too).
function operatorsOnly({ request }: LoaderFunctionArgs) {
  return signedIn(request) ?? (storedRole() === 'operator' ? null : redirect(paths.dashboard));
}

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
    { path: 'bugs', ...page('Bugs'), lazy: async () => ({ Component: (await import('./bugs/bugs-page.tsx')).BugsPage }) },
    { path: 'bugs/:bugId', ...page('Bug'), lazy: async () => ({ Component: (await import('./bugs/bug-detail-page.tsx')).BugDetailPage }) },
    { path: 'team', ...page('Team'), lazy: async () => ({ Component: (await import('./team/team-page.tsx')).TeamPage }) },
    accountRoute,
    notFoundRoute,
  ],
});

/** /ops/*: the operators' console in the portal's shell, behind its own guard. */
export const opsRoutes = inShell({
  path: paths.ops,
  loader: operatorsOnly,
  lazy: async () => ({ Component: (await import('./ops/ops-layout.tsx')).OpsLayout }),
  children: [
    { index: true, loader: () => redirect(paths.opsClients) },
    { path: 'clients', ...page('Clients'), lazy: async () => ({ Component: (await import('./ops/clients/clients-page.tsx')).OpsClientsPage }) },
    { path: 'clients/:clientId', ...page('Client'), lazy: async () => ({ Component: (await import('./ops/clients/client-page.tsx')).OpsClientPage }) },
    {
      path: 'clients/:clientId/runs/:runId/visual',
      ...page('Visual review'),
      lazy: async () => ({ Component: (await import('./ops/runs/visual-review-page.tsx')).OpsVisualReviewPage }),
    },
    { path: 'runs', ...page('Runs'), lazy: async () => ({ Component: (await import('./ops/runs/runs-page.tsx')).OpsRunsPage }) },
    { path: 'bugs', ...page('Bugs'), lazy: async () => ({ Component: (await import('./ops/bugs/bugs-page.tsx')).OpsBugsPage }) },
    { path: 'bugs/:bugId', ...page('Bug'), lazy: async () => ({ Component: (await import('./ops/bugs/bug-page.tsx')).OpsBugPage }) },
    { path: 'requests', ...page('Requests'), lazy: async () => ({ Component: (await import('./ops/requests/requests-page.tsx')).OpsRequestsPage }) },
    { path: 'manual', ...page('Manual work'), lazy: async () => ({ Component: (await import('./ops/manual/manual-queue-page.tsx')).OpsManualQueuePage }) },
    { path: 'manual/:manualId', ...page('Manual case'), lazy: async () => ({ Component: (await import('./ops/manual/manual-work-page.tsx')).OpsManualWorkPage }) },
    { path: 'suites', ...page('Suites'), lazy: async () => ({ Component: (await import('./ops/suites/suites-page.tsx')).OpsSuitesPage }) },
    { path: 'system', ...page('System'), lazy: async () => ({ Component: (await import('./ops/system/system-page.tsx')).OpsSystemPage }) },
    { path: 'audit', ...page('Audit log'), lazy: async () => ({ Component: (await import('./ops/audit/audit-page.tsx')).OpsAuditPage }) },
    accountRoute,
    notFoundRoute,
  ],
});
