/**
 * A page's path as the survey measures it and the starter suite tests it: the path and query on the website's
 * origin, and a hash route when the address has one (`/#/about`, Swagger UI's `/#/pet`): a single-page app's views
 * behind one document are pages of their own. Any other fragment (`#top`, an anchor on the page) is dropped, and so
 * is an empty route (`/#/`, `/#!/`): it is the document's own page, which hash routers move to on their first load.
 */

/** A fragment that is a client-side route with a view in it, as the browser crawl keeps them (`#/settings`, `#!/settings`). */
const HASH_ROUTE = /^#!?\/./;

/** The route fragment of an address (`#/about`), or '' when it has none. */
export function routeFragment(hash: string): string {
  return HASH_ROUTE.test(hash) ? hash : '';
}

/** `/docs?x=1`, `/#/about`: a URL's path, query and route fragment. */
export function pagePathOf(url: string | URL): string {
  const u = typeof url === 'string' ? new URL(url) : url;
  return `${u.pathname}${u.search}${routeFragment(u.hash)}`;
}

/** The document a page path loads: the path without its fragment (`/#/about` is `/`). */
export function documentPath(path: string): string {
  const hash = path.indexOf('#');
  return hash === -1 ? path : path.slice(0, hash);
}

/**
 * Whether going from `current` to `next` would be a same-document navigation (`/#/about` after `/`): no load, no
 * response, and the previous view's state carried over. A kind that tests each page as a visitor opening its address
 * loads `about:blank` first.
 */
export const sameDocument = (current: string, next: string): boolean => next.includes('#') && current.split('#')[0] === next.split('#')[0];
