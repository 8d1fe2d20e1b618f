import { createBrowserRouter } from 'react-router';
import { marketingRoutes } from '@/features/marketing/routes.tsx';
import { portalRoutes } from '@/features/portal/routes.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * One data router for the whole site. Marketing and portal routes come from their features; portal code is
 * lazy-loaded so marketing pages never download it.
 */
export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [...marketingRoutes, ...portalRoutes, { path: '*', element: <NotFoundPage /> }],
  },
]);
