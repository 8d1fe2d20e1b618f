import { apiPaths, paths } from '@fullstop/contracts';
import { expect, maskedKey, test } from '../../support/portal.ts';

test.describe('setup: the API key', () => {
  test('is masked until shown, and a new one is generated only after a confirmation', async ({ clientPage: page, client, request }) => {
    await page.goto(paths.setup);
    const key = page.getByLabel('API Key');
    await expect(key).toHaveValue(maskedKey(client.apiKey));
    await expect(page.locator('body')).not.toContainText(client.apiKey);
    const toggle = page.getByRole('button', { name: 'Show' });
    await toggle.click();
    await expect(key).toHaveValue(client.apiKey);
    await page.getByRole('button', { name: 'Hide' }).click();
    await expect(key).toHaveValue(maskedKey(client.apiKey));

    // Cancel keeps the key: nothing is sent.
    let generated = 0;
    page.on('request', (r) => {
      if (r.url().includes(apiPaths.generateApiKey)) generated++;
    });
    await page.getByRole('button', { name: 'Generate New Key' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Generate a new API key?' });
    await expect(dialog).toContainText('stops working at once');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(generated).toBe(0);
    expect((await request.get(apiPaths.tests, { headers: { 'x-api-key': client.apiKey } })).status()).toBe(200);

    // Confirmed: the new key shows, and the old one stops working.
    await page.getByRole('button', { name: 'Generate New Key' }).click();
    await dialog.getByRole('button', { name: 'Generate New Key' }).click();
    await expect(key).not.toHaveValue(maskedKey(client.apiKey));
    await expect(key).not.toHaveValue(/•/);
    expect(generated).toBe(1);
    expect((await request.get(apiPaths.tests, { headers: { 'x-api-key': client.apiKey } })).status()).toBe(401);
  });

  test('states which files each platform accepts', async ({ clientPage: page }) => {
    await page.goto(paths.setup);
    await expect(page.getByText('Accepted files: Android: .apk · iOS: .ipa')).toBeVisible();
    await expect(page.getByLabel('Choose the Android APK file')).toHaveAccessibleDescription('An .apk file (Android package)');
    await expect(page.getByLabel('Choose the iOS App file')).toHaveAccessibleDescription('An .ipa file (iOS app archive)');
  });
});
