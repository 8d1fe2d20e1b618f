import type { RouteObject } from 'react-router';

export const marketingRoutes: RouteObject[] = [
  { path: '/', lazy: async () => ({ Component: (await import('./home/home-page.tsx')).HomePage }) },
];
