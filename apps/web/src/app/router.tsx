import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { marketingRoutes } from '@/features/marketing/routes.tsx';
import { dashboardRoutes, inviteRoutes, opsRoutes, portalRoutes } from '@/features/portal/routes.tsx';
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
    children: [...marketingRoutes, ...portalRoutes, ...inviteRoutes, notFoundRoute],
  },
  {
    element: <AppFrame />,
    errorElement: <RouteError />,
    children: [...dashboardRoutes, ...opsRoutes],
  },
];

/**
 * Whether the client renders, for `location`, a page the build prerendered: a public page or the site's 404.
 * The server answers any unknown path with the prerendered 404, including /dashboard/<unknown>, which the
 * client renders as a portal page: hydrating that HTML would fail (React #418), so it is rendered afresh.
 */
export function rendersPrerenderedPage(location: string | Partial<Location>): boolean {
  const leaf = matchRoutes(routes, location)?.at(-1)?.route;
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

export async function createAppRouter() {
  await resolveLazyRoutes(routes, window.location);
  return createBrowserRouter(routes);
}
