import { apiPaths, paths } from '@fullstop/contracts';
import { expect, loginThroughApi, maskedKey, storedAuth, test } from '../../support/portal.ts';

test.describe('session', () => {
  test('an access token the server no longer accepts is renewed once, silently', async ({ page, client }) => {
    const session = await loginThroughApi(page, client);
    // What the server sees when the token's lifetime is over: a token it will not accept. A real expiry is
    // tested in session-expiry.spec.ts, against a server with short-lived tokens.
    await page.evaluate(() => localStorage.setItem('accessToken', 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.expired'));
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith(apiPaths.refreshToken)) refreshes.push(r.postData() ?? '');
    });

    await page.goto(paths.setup);
    await expect(page.getByLabel('API Key')).toHaveValue(maskedKey(client.apiKey));
    await expect(page).toHaveURL(/\/dashboard\/setup$/);
    expect(refreshes).toHaveLength(1);
    expect(JSON.parse(refreshes[0] ?? '{}')).toEqual({ token: session.refreshToken });
    const stored = await storedAuth(page);
    expect(stored.accessToken).not.toContain('expired');
    // Refresh tokens rotate: the used one is replaced.
    expect(stored.refreshToken).not.toBe(session.refreshToken);
  });

  test('a session that cannot be renewed ends at /login with the stored auth removed', async ({ page, client }) => {
    await loginThroughApi(page, client);
    await page.evaluate(() => {
      localStorage.setItem('accessToken', 'not-a-token');
      localStorage.setItem('refreshToken', 'revoked-refresh-token');
    });
    await page.goto(paths.setup);
    // Issue 8: the login page says the session ended, and keeps the page to return to.
    await expect(page).toHaveURL(/\/login\?session=ended&next=%2Fdashboard%2Fsetup$/);
    await expect(page.getByText('Your session has ended. Please log in again.')).toBeVisible();
    const stored = await storedAuth(page);
    expect(stored).toMatchObject({ accessToken: null, refreshToken: null, userData: null, apiKey: null });
    expect(stored.isAuthenticated).not.toBe('true');
  });

  test('logout clears the server caches, the storage, and lands on /login with a full page load', async ({ page, client }) => {
    await loginThroughApi(page, client);
    await page.goto(paths.setup);
    await expect(page.getByLabel('API Key')).toHaveValue(maskedKey(client.apiKey));
    expect((await storedAuth(page)).apiKey).toBe(client.apiKey);

    const before = await storedAuth(page);
    const cleared: string[] = [];
    const order: string[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/clearCache')) cleared.push(`${new URL(r.url()).pathname} ${r.status()}`);
      if (r.url().endsWith('/clearCache') || r.url().endsWith(apiPaths.logout)) order.push(new URL(r.url()).pathname);
    });
    const fullLoad = page.waitForEvent('load');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('button', { name: 'Logout' }).click();
    await fullLoad;
    await expect(page).toHaveURL(/\/login$/);
    expect(cleared.sort()).toEqual(['/clientProfile/clearCache 200', '/report/clearCache 200', '/test/clearCache 200']);
    // Then the session ends on the server: the refresh and access tokens it held no longer work.
    expect(order.at(-1)).toBe('/auth/logout');
    expect((await page.request.post(apiPaths.refreshToken, { data: { token: before.refreshToken } })).status()).toBe(401);
    expect((await page.request.get(`${apiPaths.clientProfile}/${client.clientId}`, { headers: { authorization: `Bearer ${before.accessToken}` } })).status()).toBe(401);
    const stored = await storedAuth(page);
    expect(stored).toMatchObject({ accessToken: null, refreshToken: null, userData: null, apiKey: null });
    expect(stored.isAuthenticated).not.toBe('true');

    await page.goto(paths.dashboard);
    await expect(page).toHaveURL(/\/login$/);
  });
});
