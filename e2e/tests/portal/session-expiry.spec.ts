import { apiPaths, paths } from '@fullstop/contracts';
import { expect, loginThroughApi, maskedKey, storedAuth, test } from '../../support/portal.ts';
import { SHORT_TOKEN_TTL } from '../../support/servers.ts';

/** Runs in the project short-token-life, against a server whose access tokens live SHORT_TOKEN_TTL seconds. */
test.describe('session with short-lived access tokens', () => {
  test('a token that really expired is renewed while the page keeps working', async ({ page, client }) => {
    const session = await loginThroughApi(page, client);
    await page.goto(paths.setup);
    await expect(page.getByLabel('API Key')).toHaveValue(maskedKey(client.apiKey));
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith(apiPaths.refreshToken)) refreshes.push(r.url());
    });
    await page.waitForTimeout((SHORT_TOKEN_TTL + 1) * 1000);
    // The next calls carry the expired token: one renewal, then each is retried and answers.
    await page.getByRole('link', { name: 'Requests' }).click();
    await expect(page.getByText('No requests yet.')).toBeVisible();
    expect(refreshes).toHaveLength(1);
    const renewed = await storedAuth(page);
    expect(renewed.accessToken).not.toBe(session.accessToken);
    expect(renewed.refreshToken).not.toBe(session.refreshToken);
    // And again, after the renewed token expired in turn: the session goes on without a login.
    await page.waitForTimeout((SHORT_TOKEN_TTL + 1) * 1000);
    await page.reload();
    await expect(page.getByText('No requests yet.')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/requests$/);
    expect(refreshes.length).toBeGreaterThanOrEqual(2);
  });
});
