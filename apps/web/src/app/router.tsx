import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { marketingRoutes } from '@/features/marketing/routes.tsx';
import { alertConfirmRoutes, APP_PATHS, inviteRoutes, loginRoute, portalRoutes } from '@/features/portal/routes.tsx';
import { LOGIN_PARAMS } from '@/lib/login-redirect.ts';
import { AppFrame } from './app-frame.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';

/**
 * One route table for the whole site. Marketing and portal routes come from their features, each page
 * lazy-loaded, so a marketing page never downloads portal code. The build prerenders from the same table.
 * The public pages and /login sit in the marketing header and footer; /dashboard/* and /ops/* have their own
 * shell, and their route tables join the app frame's with the first of their pages (`createAppRouter`).
 */
const notFoundRoute: RouteObject = { path: '*', element: <NotFoundPage /> };

/** The route the portal's and the console's tables are added under. */
const appFrame: RouteObject = { id: 'app-frame', element: <AppFrame />, errorElement: <RouteError />, children: [] };

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [...marketingRoutes, ...portalRoutes, ...inviteRoutes, ...alertConfirmRoutes, notFoundRoute],
  },
  appFrame,
];

/** Whether a path is the client portal's or the console's (their tables are in app-routes.tsx). */
const isAppPath = (pathname: string) => APP_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));

let appRoutes: Promise<RouteObject[]> | undefined;
/** The portal's and the console's route tables, loaded once. */
const loadAppRoutes = () =>
  (appRoutes ??= import('@/features/portal/app-routes.tsx').then(({ dashboardRoutes, opsRoutes }) => [...dashboardRoutes, ...opsRoutes]));

/**
 * Whether the client renders, for `location`, a page the build prerendered: a public page, the site's 404, or
 * /login as a visitor without a session first sees it. The server answers any unknown path with the
 * prerendered 404, including /dashboard/<unknown>, which the client renders as a portal page: hydrating that
 * HTML would fail (React #418), so it is rendered afresh. So is /login with a reset token or the session-ended
 * note, which the prerendered form does not show.
 */
export function rendersPrerenderedPage(location: Partial<Location>): boolean {
  if (isAppPath(location.pathname ?? '/')) return false;
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

/**
 * The router, once the first location's loaders (the portal's guards) have run and any redirect is done. A first
 * page in the portal or the console has their route tables in it from the start; a later navigation there adds
 * them before it matches (React Router's `patchRoutesOnNavigation`: the root's `*` route matched it until then).
 */
export async function createAppRouter() {
  let patched = false;
  if (isAppPath(window.location.pathname)) {
    appFrame.children!.push(...(await loadAppRoutes()));
    patched = true;
  }
  await resolveLazyRoutes(routes, window.location);
  const router = createBrowserRouter(routes, {
    async patchRoutesOnNavigation({ path, patch }) {
      if (patched || !isAppPath(path.split(/[?#]/)[0]!)) return;
      const children = await loadAppRoutes();
      if (patched) return;
      patch(appFrame.id!, children);
      patched = true;
    },
  });
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
