import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { pageTitle } from '@/components/page-title.ts';
import { paths } from '@/config/paths.ts';
import { marketingTitles } from '@/features/marketing/page-titles.ts';
import { LOGIN_PAGE_TITLE } from '@/features/portal/login/login-titles.ts';
import { routes } from './router.tsx';

/**
 * Build-time entry (see vite.config.ts): renders one public page to HTML. The client then hydrates it, so a
 * visitor sees the page before any script runs. Only pages without per-visitor content are prerendered: /login
 * as a visitor without a session sees it (its guard reads no session here, so it lets the render through).
 */
export async function renderPage(pathname: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://prerender.local${pathname}`));
  if (context instanceof Response) throw new Error(`prerender of ${pathname} answered a redirect`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
}

/** The <title> a prerendered page carries, the same one its page sets after hydration. */
export function titleFor(pathname: string): string {
  if (pathname === paths.login) return LOGIN_PAGE_TITLE;
  return pageTitle(pathname in marketingTitles ? (marketingTitles[pathname] ?? null) : 'Page not found');
}
