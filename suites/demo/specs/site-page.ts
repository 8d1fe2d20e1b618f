import { expect as expectWithin5s, test as base, type Page } from '@playwright/test';

// One browser page for every test of a file, instead of a new context for each: these checks only read public
// pages, so they need no isolation from each other, and each new context loads and compiles the site's scripts
// again (about 1.5 CPU-seconds a page on 2 cores). A test that fails still ends its worker: the tests after it get a
// fresh page, and the failed one keeps its trace and screenshot. A test that signs in or changes state should use
// Playwright's own `page` fixture (a new context each) instead.
export const test = base.extend<object, { sitePage: Page }>({
  sitePage: [
    async ({ browser }, use) => {
      const context = await browser.newContext();
      await use(await context.newPage());
      await context.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ sitePage }, use) => {
    await use(sitePage);
  },
});

// Every check waits for what it checks for as long as the test may run (its testTimeoutMs in suite.json), not
// Playwright's 5 s: on a busy machine a page can take longer to load than that and still be right. Timeout 0 is
// Playwright's "no timeout of its own" for assertions.
export const expect = expectWithin5s.configure({ timeout: 0 });
