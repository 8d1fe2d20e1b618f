import { useMatches } from 'react-router';

/** What a dashboard route declares in its `handle`: its tab title ("Insights · Fullstop QA"). */
export interface PortalRouteHandle {
  title: string;
}

export const routeTitle = (title: string): { handle: PortalRouteHandle } => ({ handle: { title } });

/** The deepest matched route's title, or `fallback`. */
export function useRouteTitle(fallback: string): string {
  const match = useMatches().findLast((m) => typeof (m.handle as PortalRouteHandle | undefined)?.title === 'string');
  return (match?.handle as PortalRouteHandle | undefined)?.title ?? fallback;
}
