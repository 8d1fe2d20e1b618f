import fp from 'fastify-plugin';

/** `/auth` of `/auth/login`; null for `/` and for a path that starts with a parameter or a wildcard. */
function firstSegment(url: string): string | null {
  const segment = url.split('/')[1] ?? '';
  return segment && !/^[:*]/.test(segment) ? `/${segment}` : null;
}

/**
 * The API's path prefixes, read off its routes as they are added, so that an unknown path under one of them
 * answers JSON rather than the SPA's 404 page, and a new feature needs no list kept by hand. Registered before
 * any plugin that adds routes (the docs' included); the SPA takes its copy before it adds its own pages.
 */
export const apiPrefixes = fp(
  async (app) => {
    const prefixes = new Set<string>();
    app.addHook('onRoute', (route) => {
      const prefix = firstSegment(route.url);
      if (prefix) prefixes.add(prefix);
    });
    app.decorate('apiPrefixes', prefixes);
  },
  { name: 'api-prefixes' },
);

/** Whether the request's path is one of these prefixes or lies under one (`/auth`, `/auth/`, `/auth/nope`). */
export function isApiPath(url: string, prefixes: ReadonlySet<string>): boolean {
  const pathname = url.split('?')[0] ?? '/';
  return prefixes.has(`/${pathname.split('/')[1] ?? ''}`);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The first path segments of the routes registered so far (`/auth`, `/docs`, `/healthz` ...). */
    apiPrefixes: ReadonlySet<string>;
  }
}
