import { describe, expect, it } from 'vitest';
import { rendersPrerenderedPage } from './router.tsx';

const at = (href: string) => {
  const url = new URL(href, 'http://site.test');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
};

describe('which first renders may hydrate the prerendered HTML', () => {
  it('every public page and the 404 page', () => {
    for (const path of ['/', '/pricing', '/contact-us', '/privacy-policy', '/no-such-page']) expect(rendersPrerenderedPage(at(path))).toBe(true);
  });

  it('/login as a visitor first sees it, with or without a page to return to', () => {
    expect(rendersPrerenderedPage(at('/login'))).toBe(true);
    expect(rendersPrerenderedPage(at('/login?next=%2Fdashboard%2Ftests'))).toBe(true);
  });

  it('not /login with a reset token or the session-ended note, which the prerendered form does not show', () => {
    expect(rendersPrerenderedPage(at('/login?resetToken=abc'))).toBe(false);
    expect(rendersPrerenderedPage(at('/login?session=ended'))).toBe(false);
  });

  it('not a portal or console page, even where the server answered the 404 page, before their routes are loaded', () => {
    expect(rendersPrerenderedPage(at('/dashboard'))).toBe(false);
    expect(rendersPrerenderedPage(at('/dashboard/no-such-page'))).toBe(false);
    expect(rendersPrerenderedPage(at('/ops/clients'))).toBe(false);
    // A public path that only starts like one is still a public page (the site's 404 here).
    expect(rendersPrerenderedPage(at('/opsy'))).toBe(true);
  });
});
