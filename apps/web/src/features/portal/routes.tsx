import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { LOGIN_PARAMS, safeNext } from '@/lib/login-redirect.ts';
import { isAuthenticated, storedRole } from '@/lib/session-flag.ts';
import { routeTitle as page } from './components/route-title.ts';

/** The paths whose route tables app-routes.tsx holds: the client portal's and the console's. */
export const APP_PATHS = [paths.dashboard, paths.ops];

// The only portal code in the main bundle: the routes a visitor without a session can open (/login, /invite,
// /confirm-alerts) and a guard reading one stored flag. The portal's and the console's route tables are in
// app-routes.tsx, loaded with the first of their pages. A signed-in user at /login goes to the page a `next`
// names (a portal page only), or to the dashboard. An operator's home is the console (/ops), a client's the
// dashboard.
const homeOf = () => (storedRole() === 'operator' ? paths.ops : paths.dashboard);

function guestsOnly({ request }: LoaderFunctionArgs) {
  if (!isAuthenticated()) return null;
  const next = safeNext(new URL(request.url).searchParams.get(LOGIN_PARAMS.next));
  const home = homeOf();
  return redirect(next && next.startsWith(home) ? next : home);
}

/** A route inside the portal's shell: the store and styles every portal page shares, loaded with the first of them. */
export const inShell = (route: RouteObject): RouteObject[] => [
  { lazy: async () => ({ Component: (await import('./portal-shell.tsx')).PortalShell }), children: [route] },
];

/** /login, inside the marketing header and footer. The build prerenders it as a visitor without a session sees it. */
export const loginRoute: RouteObject = {
  path: paths.login,
  loader: guestsOnly,
  lazy: async () => ({ Component: (await import('./login/login-page.tsx')).LoginPage }),
};
export const portalRoutes = inShell(loginRoute);

/** /invite?token=…: an invited user sets a password, inside the marketing header and footer like /login. */
export const inviteRoutes = inShell({
  path: paths.invite,
  ...page('Join your team'),
  lazy: async () => ({ Component: (await import('./team/invite-page.tsx')).InvitePage }),
});

/** /confirm-alerts?token=…: the link mailed to a new e-mail alert channel's address; no login. */
export const alertConfirmRoutes = inShell({
  path: paths.alertConfirm,
  ...page('Confirm alerts'),
  lazy: async () => ({ Component: (await import('./setup/alert-confirm-page.tsx')).AlertConfirmPage }),
});
