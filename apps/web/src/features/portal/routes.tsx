import type { RouteObject } from 'react-router';

export const portalRoutes: RouteObject[] = [];
