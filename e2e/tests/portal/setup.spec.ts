import { apiPaths, paths } from '@fullstop/contracts';
import { collectAlerts, expect, maskedKey, test } from '../../support/portal.ts';
import { writeAxml } from '../../../packages/engine/test/fixtures/axml-writer.ts';
import { tinyApk, zip } from '../../support/zip.ts';

/** An APK whose binary manifest names the app, as the Android tools write it. */
const acmeApk = () =>
  zip({
    'AndroidManifest.xml': writeAxml({
      name: 'manifest',
      attributes: { package: 'com.acme.shop', versionCode: 241, versionName: '2.4.1' },
      children: [{ name: 'application', attributes: { label: 'Acme Shop' } }],
    }),
    'classes.dex': Buffer.from('dex\n035\0'),
  });

test.describe('setup', () => {
  test('shows the website and key, copies the token, and generates a new key that works', async ({ clientPage: page, client, context, request }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(paths.setup);
    await expect(page.getByLabel('Website')).toHaveValue('https://example.test');
    const key = page.getByLabel('API Key');
    // Issue 8: masked until Show is pressed.
    await expect(key).toHaveValue(maskedKey(client.apiKey));
    await expect(key).toHaveAttribute('readonly', '');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(key).toHaveValue(client.apiKey);

    const alerts = collectAlerts(page);
    await page.getByRole('button', { name: 'Copy Token' }).click();
    await expect.poll(() => alerts).toEqual(['Token copied to clipboard.']);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(client.apiKey);

    await page.getByRole('button', { name: 'Generate New Key' }).click();
    // Issue 8: it asks first.
    await page.getByRole('alertdialog').getByRole('button', { name: 'Generate New Key' }).click();
    await expect(key).not.toHaveValue(client.apiKey);
    const fresh = await key.inputValue();
    expect(fresh.length).toBeGreaterThan(20);
    expect(await page.evaluate(() => localStorage.getItem('apiKey'))).toBe(fresh);
    expect((await request.get(apiPaths.tests, { headers: { 'x-api-key': fresh } })).status()).toBe(200);
    expect((await request.get(apiPaths.tests, { headers: { 'x-api-key': client.apiKey } })).status()).toBe(401);
  });

  test('uploads an APK, then shows the app it holds, its file, size, en-GB time and Re-upload', async ({ clientPage: page }) => {
    await page.goto(paths.setup);
    const android = page.locator('.portal-upload').filter({ hasText: 'Android APK' });
    const alerts = collectAlerts(page);
    await android.getByLabel('Choose the Android APK file').setInputFiles({
      name: 'app-release.apk',
      mimeType: 'application/vnd.android.package-archive',
      buffer: await acmeApk(),
    });
    await expect.poll(() => alerts).toHaveLength(1);
    expect(alerts[0]).toMatch(/uploaded/i);
    // Issue 8: the app's name, version and package read from the build, then the file's own name, not a storage path.
    await expect(android.locator('.portal-upload__app')).toHaveText('Acme Shop 2.4.1 (241) · com.acme.shop');
    await expect(android.locator('dd').first()).toHaveText('app-release.apk');
    await expect(android.locator('dd').nth(1)).toHaveText(/^\d+(\.\d)? (B|kB)$/);
    // en-GB: day/month/year, 24-hour clock.
    await expect(android.locator('dd').nth(2)).toHaveText(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/);
    await expect(android).not.toContainText('android/');

    await android.getByRole('button', { name: 'Re-upload' }).click();
    await expect(android.getByLabel('Choose the Android APK file')).toBeVisible();

    // The server checks what the file is, not its name: its message follows the spec's prefix.
    await android.getByLabel('Choose the Android APK file').setInputFiles({ name: 'fake.apk', mimeType: 'application/octet-stream', buffer: Buffer.from('not a zip') });
    await expect.poll(() => alerts).toHaveLength(2);
    expect(alerts[1]).toMatch(/^Error uploading file: \S/);
    await expect(android.getByLabel('Choose the Android APK file')).toBeVisible();

    // A build whose manifest does not say its name is still accepted, and named by its file.
    await android.getByLabel('Choose the Android APK file').setInputFiles({ name: 'plain.apk', mimeType: 'application/octet-stream', buffer: await tinyApk() });
    await expect.poll(() => alerts).toHaveLength(3);
    await expect(android.locator('.portal-upload__app')).toHaveText('plain.apk');
  });

  test('shows upload progress while the file is sent', async ({ clientPage: page }) => {
    await page.goto(paths.setup);
    // Slow the upload down so the progress bar is seen.
    await page.route('**/upload/android/**', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    const android = page.locator('.portal-upload').filter({ hasText: 'Android APK' });
    collectAlerts(page);
    await android.getByLabel('Choose the Android APK file').setInputFiles({ name: 'app.apk', mimeType: 'application/octet-stream', buffer: await tinyApk() });
    await expect(android.getByRole('progressbar')).toBeVisible();
    await expect(android.locator('.portal-upload__app')).toHaveText('app.apk');
  });
});
