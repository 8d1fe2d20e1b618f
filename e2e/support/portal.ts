import { apiPaths, paths, type LoginResponse } from '@fullstop/contracts';
import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { createClient, type E2eClient, operatorToken } from './operator.ts';

/** Created by the server at start-up on a fresh data directory. */
export const DEMO = { email: 'demo@fullstop.test', password: 'fullstop-demo' } as const;

export const AUTH_KEYS = ['userData', 'accessToken', 'refreshToken', 'apiKey', 'isAuthenticated'] as const;

export async function storedAuth(page: Page): Promise<Record<(typeof AUTH_KEYS)[number], string | null>> {
  return page.evaluate(
    (keys) => Object.fromEntries(keys.map((k) => [k, localStorage.getItem(k)])) as Record<(typeof keys)[number], string | null>,
    [...AUTH_KEYS],
  );
}

type Credentials = { email: string; password: string };

/** Logs in through the API only: the session's tokens, for calls made with `request`. */
export async function apiSession(request: APIRequestContext, credentials: Credentials): Promise<LoginResponse> {
  const res = await request.post(apiPaths.login, { data: credentials });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as LoginResponse;
}

/** Logs in through the API and stores the session as the portal does, without the login form. */
export async function loginThroughApi(page: Page, credentials: Credentials): Promise<LoginResponse> {
  const session = await apiSession(page.request, credentials);
  // A portal page: it is not prerendered, so nothing hydrates against the storage written next.
  await page.goto(paths.login);
  await page.evaluate((s) => {
    localStorage.setItem('accessToken', s.accessToken);
    localStorage.setItem('refreshToken', s.refreshToken);
    localStorage.setItem('userData', JSON.stringify(s.userData));
    localStorage.setItem('isAuthenticated', 'true');
  }, session);
  return session;
}

/** Logs in through the form, closes the success popup, and lands on the dashboard (an operator: on the console's `landing`). */
export async function loginThroughForm(page: Page, credentials: Credentials, landing: RegExp = /\/dashboard$/): Promise<void> {
  await page.goto(paths.login);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('dialog')).toContainText('Login successful!');
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(landing);
}

interface PortalFixtures {
  /** A fresh client of this test's own. */
  client: E2eClient;
  /** A page logged in as that client. */
  clientPage: Page;
  /** The demo account's session, with `page` logged in as the demo client (the one that may test 127.0.0.1). */
  demoSession: LoginResponse;
  /** A page logged in as the demo client. */
  demoPage: Page;
}

/**
 * An operator of our QA team in a browser context of its own: a new user with the role operator (made with the
 * operator token), logged in on the same /login, the cookie banner answered as the `page` fixture does.
 */
export async function operatorPage(browser: Browser, baseURL: string, label = 'ops', username = 'E2E Operator'): Promise<{ page: Page; context: BrowserContext }> {
  const operator = { email: `${label}-${process.pid}-${Date.now()}@e2e.test`, password: 'e2e-operator-123', username };
  const context = await browser.newContext({ baseURL });
  const res = await context.request.post('/operator/users', { headers: { authorization: `Bearer ${operatorToken()}` }, data: { ...operator, role: 'operator' } });
  expect(res.status(), await res.text()).toBe(201);
  await context.addInitScript(() => localStorage.setItem('cookieConsent', 'true'));
  const page = await context.newPage();
  await loginThroughForm(page, operator, /\/ops\/clients$/);
  return { page, context };
}

export const test = base.extend<PortalFixtures>({
  page: async ({ page }, use) => {
    // The cookie banner is answered, so it never covers what a test clicks or a screenshot shows.
    await page.addInitScript(() => {
      if (localStorage.getItem('cookieConsent') === null) localStorage.setItem('cookieConsent', 'true');
    });
    await use(page);
  },
  client: async ({ request }, use) => {
    await use(await createClient(request));
  },
  clientPage: async ({ page, client }, use) => {
    await loginThroughApi(page, client);
    await use(page);
  },
  demoSession: async ({ page }, use) => {
    await use(await loginThroughApi(page, DEMO));
  },
  demoPage: async ({ page, demoSession: _ }, use) => {
    await use(page);
  },
});

export { expect };

/** The API key as the Setup page shows it until Show is pressed: its prefix, bullets and its last four characters. */
export function maskedKey(key: string): RegExp {
  return new RegExp(`^[^•]*••••••••${key.slice(-4).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/** Accepts every alert of the page and keeps its text, for `expect.poll(() => alerts)`. */
export function collectAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  return alerts;
}
