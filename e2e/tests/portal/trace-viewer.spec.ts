import type { EvidenceLinkResponse, EvidenceListResponse } from '@fullstop/contracts';
import { expect, test, type APIRequestContext, type Request } from '@playwright/test';
import { collectPageProblems } from '../../support/page-problems.ts';
import { createClient, operatorToken, type E2eClient } from '../../support/operator.ts';

/**
 * A browser test that fails for real: Playwright opens the shop's checkout, clicks, then an assertion fails, so
 * the runner keeps its trace and screenshot. The test answers the shop's page itself (page.route), so it needs
 * no network; the website is a documentation address (TEST-NET-1) the target policy accepts and nothing dials.
 */
const CHECKOUT_SPEC = `import { expect, test } from '@playwright/test';

const CHECKOUT = '<!doctype html><title>Checkout</title><h1>Checkout</h1><button onclick="this.textContent=\\'Declined\\'">Pay now</button>';

test('the checkout confirms the payment', async ({ page }) => {
  await page.route('**/*', (route) => route.fulfill({ contentType: 'text/html', body: CHECKOUT }));
  await page.goto('/checkout');
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page.getByRole('heading')).toHaveText('Payment received', { timeout: 1000 });
});
`;

// Playwright reports a service worker's own requests (the viewer's worker fetches the trace) only with this set;
// it is read when the worker starts, in this process, which drives the browser.
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = '1';

const SUITE = {
  version: 1,
  name: 'Trace viewer e2e',
  groups: [
    {
      name: 'Frontend',
      tests: [{ name: 'Checkout', kind: 'browser', options: { specs: ['specs/checkout.spec.ts'], testTimeoutMs: 10_000, maxDurationSeconds: 60 } }],
    },
  ],
};

async function failedCheckout(request: APIRequestContext): Promise<{ client: E2eClient; runId: string; runTestId: string }> {
  const client = await createClient(request, { label: 'trace', website: 'http://192.0.2.1' });
  const imported = await request.post(`/operator/clients/${client.clientId}/suite`, {
    headers: { authorization: `Bearer ${operatorToken()}` },
    data: { files: [{ path: 'suite.json', content: JSON.stringify(SUITE) }, { path: 'specs/checkout.spec.ts', content: CHECKOUT_SPEC }] },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const run = await request.get('/test/run/all?wait=true&timeout=120', { headers: { 'x-api-key': client.apiKey } });
  expect(run.status(), await run.text()).toBe(200);
  const { runId, status } = (await run.json()) as { runId: string; status: string };
  expect(status).toBe('failed');
  const detail = await request.get(`/test/runs/${runId}`, { headers: { 'x-api-key': client.apiKey } });
  const [checkout] = ((await detail.json()) as { tests: { runTestId: string }[] }).tests;
  return { client, runId, runTestId: checkout!.runTestId };
}

test.describe('a failed browser test’s trace', () => {
  test('opens in Playwright’s trace viewer on our origin, for its client only, with nothing leaving the machine', async ({ page, context, request, baseURL }) => {
    test.setTimeout(150_000);
    const { client, runId, runTestId } = await failedCheckout(request);
    const evidenceUrl = `/test/runs/${runId}/tests/${runTestId}/evidence`;
    const listed = await request.get(evidenceUrl, { headers: { 'x-api-key': client.apiKey } });
    expect(listed.status()).toBe(200);
    const { evidence } = (await listed.json()) as EvidenceListResponse;
    const trace = evidence.find((e) => e.kind === 'trace');
    expect(trace, JSON.stringify(evidence)).toBeDefined();
    expect(trace!.caseName).toContain('the checkout confirms the payment');
    expect(trace!.caseError).toContain('Payment received');
    expect(evidence.some((e) => e.kind === 'screenshot' && e.caseName === trace!.caseName)).toBe(true);

    // Another client learns nothing: its own key gets 404 for the list and the link.
    const other = await createClient(request, { label: 'trace-other' });
    expect((await request.get(evidenceUrl, { headers: { 'x-api-key': other.apiKey } })).status()).toBe(404);
    expect((await request.post(`${evidenceUrl}/${trace!.evidenceId}/link`, { headers: { 'x-api-key': other.apiKey } })).status()).toBe(404);

    const linked = await request.post(`${evidenceUrl}/${trace!.evidenceId}/link`, { headers: { 'x-api-key': client.apiKey } });
    expect(linked.status()).toBe(200);
    const { url } = (await linked.json()) as EvidenceLinkResponse;

    // Every request the viewer's page and its service worker make; one the worker answers never left the browser.
    const requests: Request[] = [];
    context.on('request', (r) => requests.push(r));
    page.on('request', (r) => requests.push(r));
    const problems = collectPageProblems(page);
    await page.goto(url);

    // The viewer's own action list, stepping through what the test did up to its failure.
    const actions = page.locator('.action-title-method');
    await expect(actions.filter({ hasText: /^Navigate to/ })).toHaveCount(1, { timeout: 30_000 });
    await expect(actions.filter({ hasText: /^Click/ })).toHaveCount(1);
    await expect(actions.filter({ hasText: /^Expect/ })).toHaveCount(1);
    await page.locator('.action-title-method', { hasText: /^Click/ }).click();
    // The snapshot of the page at the click, served by the viewer's service worker.
    const snapshot = page.frameLocator('iframe.snapshot-visible[name=snapshot]');
    await expect(snapshot.getByRole('button', { name: 'Pay now' })).toBeVisible();
    const shot = test.info().outputPath('trace-viewer.png');
    await page.screenshot({ path: shot });
    await test.info().attach('trace viewer', { path: shot, contentType: 'image/png' });

    await page.waitForTimeout(500);
    const origin = new URL(baseURL!).origin;
    const left: string[] = [];
    for (const r of requests) {
      if (r.url().startsWith(`${origin}/`) || /^(blob|data):/.test(r.url())) continue;
      if (!(await r.response())?.fromServiceWorker()) left.push(r.url());
    }
    expect(left).toEqual([]);
    // The worker's own fetch of the trace was seen, so the check above covered the worker too.
    expect(requests.some((r) => r.url().includes('/trace/trace/file?path='))).toBe(true);
    expect(problems).toEqual([]);

    // A link whose token was altered opens the viewer, which cannot load the trace and says so.
    const forged = url.replace(/(%2Ffile%2F)(\w)/i, (_all, prefix: string, first: string) => `${prefix}${first === 'e' ? 'f' : 'e'}`);
    expect(forged).not.toBe(url);
    const viewer = await context.newPage();
    await viewer.goto(forged);
    await expect(viewer.getByText(/Could not load trace/)).toBeVisible({ timeout: 30_000 });
    await expect(viewer.locator('.action-title-method')).toHaveCount(0);
  });
});
