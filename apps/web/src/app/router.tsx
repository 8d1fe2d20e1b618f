import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { marketingRoutes } from '@/features/marketing/routes.tsx';
import { alertConfirmRoutes, dashboardRoutes, inviteRoutes, loginRoute, opsRoutes, portalRoutes } from '@/features/portal/routes.tsx';
import { LOGIN_PARAMS } from '@/lib/login-redirect.ts';
import { AppFrame } from './app-frame.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';

/**
 * One route table for the whole site. Marketing and portal routes come from their features, each page
 * lazy-loaded, so a marketing page never downloads portal code. The build prerenders from the same table.
 * The public pages and /login sit in the marketing header and footer; /dashboard/* has its own shell.
 */
const notFoundRoute: RouteObject = { path: '*', element: <NotFoundPage /> };

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [...marketingRoutes, ...portalRoutes, ...inviteRoutes, ...alertConfirmRoutes, notFoundRoute],
  },
  {
    element: <AppFrame />,
    errorElement: <RouteError />,
    children: [...dashboardRoutes, ...opsRoutes],
  },
];

/**
 * Whether the client renders, for `location`, a page the build prerendered: a public page, the site's 404, or
 * /login as a visitor without a session first sees it. The server answers any unknown path with the
 * prerendered 404, including /dashboard/<unknown>, which the client renders as a portal page: hydrating that
 * HTML would fail (React #418), so it is rendered afresh. So is /login with a reset token or the session-ended
 * note, which the prerendered form does not show.
 */
export function rendersPrerenderedPage(location: Partial<Location>): boolean {
  const leaf = matchRoutes(routes, location)?.at(-1)?.route;
  if (leaf === loginRoute) {
    const params = new URLSearchParams(location.search);
    return !params.has(LOGIN_PARAMS.resetToken) && !params.has(LOGIN_PARAMS.session);
  }
  return leaf !== undefined && (leaf === notFoundRoute || marketingRoutes.includes(leaf));
}

type LazyLoader = () => Promise<Partial<RouteObject>>;

/**
 * Loads the lazy modules of the routes matching `location` into the table, so the first render is the
 * finished page: a prerendered page then hydrates in place instead of flashing empty.
 */
export async function resolveLazyRoutes(table: RouteObject[], location: string | Partial<Location>): Promise<void> {
  const matches = matchRoutes(table, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const module = await (route.lazy as LazyLoader)();
      Object.assign(route, { ...module, lazy: undefined });
    }),
  );
}

/** The router, once the first location's loaders (the portal's guards) have run and any redirect is done. */
export async function createAppRouter() {
  await resolveLazyRoutes(routes, window.location);
  const router = createBrowserRouter(routes);
  if (!router.state.initialized) {
    await new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        resolve();
      });
    });
  }
  return router;
}
