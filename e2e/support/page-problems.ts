import type { BrowserContext, Page } from '@playwright/test';

/** The browser's own line for the status of the SPA's 404 page: expected there, not a problem. */
const NOT_FOUND_STATUS = /Failed to load resource: the server responded with a status of 404/;

/**
 * Collects what a visitor's console would show as broken: uncaught errors (a hydration mismatch is React
 * error #418), console errors, and CSP violations. Read the array after the page has settled.
 */
export function collectPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`${page.url()} pageerror: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (NOT_FOUND_STATUS.test(text)) return;
    if (message.type() === 'error' || /Content Security Policy/i.test(text)) problems.push(`${page.url()} ${message.type()}: ${text.split('\n')[0]}`);
  });
  return problems;
}

/**
 * Serves every page with `style-src` stripped of 'unsafe-inline', as the product's CSP should be: any style
 * attribute in prerendered HTML or injected <style> then shows up as a CSP violation in the console.
 * Only documents are rewritten (the CSP that applies comes from them); streams and assets pass untouched.
 */
export async function enforceStrictStyleCsp(context: BrowserContext): Promise<void> {
  await context.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const headers = response.headers();
    const csp = headers['content-security-policy'];
    if (csp) {
      headers['content-security-policy'] = csp.replace(/style-src([^;]*)/, (_all, sources: string) => `style-src${sources.replace(/\s*'unsafe-inline'/g, '')}`);
    }
    await route.fulfill({ response, headers });
  });
}
