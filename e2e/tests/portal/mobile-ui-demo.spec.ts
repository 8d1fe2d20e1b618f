import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { opsClientPath, paths } from '@fullstop/contracts';
import { type AppiumServer, FAKE_APP, FAKE_CAPABILITIES, FAKE_SUITE, startAppium } from '../../../packages/engine/test/fixtures/appium-server.ts';
import { writeAxml } from '../../../packages/engine/test/fixtures/axml-writer.ts';
import { operatorToken } from '../../support/operator.ts';
import { expect, operatorPage, test } from '../../support/portal.ts';
import { zip } from '../../support/zip.ts';

// Issue 28, decision 0084: the whole mobile UI path, as people do it. A real Appium 3 with Appium's fake driver
// stands in for a device lab. The demo client (the one that may reach 127.0.0.1, where that Appium listens) runs a
// trial version of a suite, never made current, so its demo suite stays as the other tests expect it: "Run all" would
// run the demo suite, so the operator's "Try" runs this version's two tests instead.

const opsHeaders = () => ({ authorization: `Bearer ${operatorToken()}` });
const FAILING_STEP = 'checkout.spec.ts › Checkout › taps Pay now';

/** A real APK's bytes as the upload checks them (binary manifest, dex); the fake driver opens its XML app instead. */
const apk = () =>
  zip({
    'AndroidManifest.xml': writeAxml({ name: 'manifest', attributes: { package: 'com.acme.shop', versionCode: 7, versionName: '7.1.0' }, children: [{ name: 'application', attributes: { label: 'Acme Shop' } }] }),
    'classes.dex': Buffer.from('dex\n035\0'),
  });

/** The suite folder an operator imports: two mobile UI tests, the second failing at "taps Pay now". */
async function suiteZip(names: { passing: string; failing: string }): Promise<Buffer> {
  const options = (specs: string) => ({ specs, platform: 'android', capabilities: FAKE_CAPABILITIES, stepTimeoutSeconds: 10, waitforTimeoutSeconds: 1 });
  const manifest = {
    version: 1,
    groups: [
      {
        name: 'Mobile',
        tests: [
          { name: names.passing, kind: 'mobile-ui', retries: 0, options: options('mobile/sign-in.spec.ts') },
          { name: names.failing, kind: 'mobile-ui', retries: 0, options: options('mobile/checkout.spec.ts') },
        ],
      },
    ],
  };
  return zip({
    'suite.json': JSON.stringify(manifest),
    'mobile/sign-in.spec.ts': await readFile(path.join(FAKE_SUITE, 'specs/sign-in.spec.ts')),
    'mobile/checkout.spec.ts': await readFile(path.join(FAKE_SUITE, 'specs/checkout.spec.ts')),
  });
}

test.describe('mobile UI tests on a device provider', () => {
  let appium: AppiumServer | undefined;
  let providerOf: string | undefined;
  test.afterEach(async ({ request }) => {
    // The demo client keeps no provider pointing at a closed port.
    if (providerOf) await request.delete(`/operator/clients/${providerOf}/mobile-devices`, { headers: opsHeaders() });
    await appium?.close();
  });

  test('an operator sets Appium, imports two mobile UI tests; the client uploads a build; the failed step’s screenshot and page source reach the report and a bug', async ({
    browser,
    baseURL,
    request,
    demoSession,
    demoPage,
  }) => {
    test.setTimeout(300_000);
    appium = await startAppium();
    const clientId = demoSession.userData.clientId!;
    providerOf = clientId;
    const unique = `${process.pid}-${Date.now()}`;
    const names = { passing: `App signs in ${unique}`, failing: `App checks out ${unique}` };

    // 1. The operator points the client's Mobile devices card at the Appium server, with the fake app to open.
    const ops = await operatorPage(browser, baseURL!, 'mobile-ops', 'E2E Mobile Operator');
    await ops.page.goto(opsClientPath(clientId));
    const card = ops.page.getByRole('region', { name: 'Mobile devices' });
    await card.getByLabel('Provider', { exact: true }).selectOption('appium');
    await card.getByLabel('Appium URL', { exact: true }).fill(appium.url);
    await card.getByLabel('Extra capabilities (JSON, optional)').fill(JSON.stringify({ 'appium:app': FAKE_APP }));
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card).toContainText('Device provider saved.');
    await expect(card).toContainText(`Appium at ${appium.url}`);
    await card.getByRole('button', { name: 'Test' }).click();
    await expect(card).toContainText(/Appium 3\.\d+\.\d+ answered: ready/);

    // 2. The operator imports the suite as a trial version (not current: the demo suite stays the current one).
    const imported = await request.post(`/operator/clients/${clientId}/suites`, {
      headers: opsHeaders(),
      multipart: { makeCurrent: 'false', zip: { name: 'mobile-suite.zip', mimeType: 'application/zip', buffer: await suiteZip(names) } },
    });
    expect(imported.status(), await imported.text()).toBe(201);
    const { version } = (await imported.json()) as { version: number };

    // 3. The client uploads the Android build on the Setup page; the operator tries the version (its two tests).
    await demoPage.goto(paths.setup);
    const android = demoPage.locator('.portal-upload').filter({ hasText: 'Android APK' });
    demoPage.once('dialog', (dialog) => void dialog.accept());
    if (await android.getByRole('button', { name: 'Re-upload' }).isVisible()) await android.getByRole('button', { name: 'Re-upload' }).click();
    await demoPage.getByLabel('Choose the Android APK file').setInputFiles({ name: 'acme-shop-7.1.0.apk', mimeType: 'application/vnd.android.package-archive', buffer: await apk() });
    await expect(android.getByRole('button', { name: 'Re-upload' })).toBeVisible();
    const tried = await request.post(`/operator/clients/${clientId}/suites/${version}/try`, { headers: opsHeaders() });
    expect(tried.status(), await tried.text()).toBe(200);
    const { runId } = (await tried.json()) as { runId: string };

    // 4. The client's run page: the passing test passed, the failing one failed at its named step, with the step's
    // screenshot; its HTML report shows the page source at the failure.
    await demoPage.goto(`${paths.history}/${runId}`);
    const passing = demoPage.getByRole('listitem').filter({ has: demoPage.getByText(names.passing, { exact: true }) });
    const failing = demoPage.getByRole('listitem').filter({ has: demoPage.getByText(names.failing, { exact: true }) });
    await expect(async () => {
      await demoPage.reload();
      await expect(failing.getByRole('button', { name: `Open the HTML report of ${names.failing}` })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 180_000, intervals: [2_000] });
    await expect(passing).toContainText(/passed/i);
    await expect(failing).toContainText(/failed/i);
    await expect(failing).toContainText('1 of 2 passed');
    await expect(failing.getByRole('img', { name: `Fake Pixel (14): after "${FAILING_STEP}"` })).toBeVisible();
    const reportOpened = demoPage.waitForEvent('popup');
    await failing.getByRole('button', { name: `Open the HTML report of ${names.failing}` }).click();
    const report = await reportOpened;
    await expect(report.locator('body')).toContainText(FAILING_STEP);
    await expect(report.locator('body')).toContainText('Welcome to Acme Shop');
    await report.close();

    // 5. The operator makes a bug of the failed step from the runs feed: the screenshot and page source go with it.
    const detail = await request.get(`/test/runs/${runId}`, { headers: { authorization: `Bearer ${demoSession.accessToken}` } });
    const { tests } = (await detail.json()) as { tests: { runTestId: string; testName: string }[] };
    const failedId = tests.find((t) => t.testName === names.failing)!.runTestId;
    await ops.page.goto(`${paths.opsRuns}?clientId=${clientId}`);
    await ops.page.locator(`a[href*="runTestId=${failedId}"]`).filter({ hasText: 'Create bug' }).click();
    await expect(ops.page.getByLabel('Title')).toHaveValue(new RegExp(names.failing));
    await expect(ops.page.getByText('This evidence will be attached:')).toBeVisible();
    await expect(ops.page.getByRole('listitem').filter({ hasText: '(screenshot)' })).toHaveCount(1);
    await expect(ops.page.getByRole('listitem').filter({ hasText: '(page-source)' })).toHaveCount(1);
    await ops.page.getByRole('button', { name: 'Publish to the client' }).click();
    await expect(ops.page).toHaveURL(/\/ops\/bugs\/[\w-]+$/);
    const evidence = ops.page.getByRole('region', { name: 'Evidence' });
    await expect(evidence.getByRole('list', { name: 'Images' }).getByRole('img')).toBeVisible();
    const downloaded = ops.page.waitForEvent('download');
    await evidence.getByRole('button', { name: /^Download .+\.xml$/ }).click();
    const source = await readFile(await (await downloaded).path(), 'utf8');
    expect(source).toContain('<MockButton id="sign-in"');
    await ops.context.close();
  });
});
