import { paths, visualReviewPaths } from '@fullstop/contracts';
import type { APIRequestContext } from '@playwright/test';
import { operatorToken } from '../../support/operator.ts';
import { expect, operatorPage, test } from '../../support/portal.ts';
import { shots } from '../../support/screenshots.ts';

// Issue 27, decision 0082: an operator approves visual shots in the console; the client sees the review read-only.
// The demo client (the one that may test this server on 127.0.0.1) runs trial versions of a suite, never made
// current, so its demo suite stays as the other tests expect it. Both versions name one page "Page": version 1 shoots
// /pricing, version 2 /services, so the second run's shot differs from the first's approved one.

const opsHeaders = () => ({ authorization: `Bearer ${operatorToken()}` });

async function trialVersion(request: APIRequestContext, clientId: string, testName: string, path: string): Promise<number> {
  const suite = { version: 1, groups: [{ name: 'Looks', tests: [{ name: testName, kind: 'visual', retries: 0, options: { pages: [{ path, name: 'Page' }], fullPage: false } }] }] };
  const res = await request.post(`/operator/clients/${clientId}/suites`, {
    headers: opsHeaders(),
    multipart: { makeCurrent: 'false', files: { name: 'suite.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(suite)) } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { version: number }).version;
}

/** Runs a trial version and waits for its run to end; answers the run's id and status. */
async function tryVersion(request: APIRequestContext, clientId: string, version: number, accessToken: string) {
  const res = await request.post(`/operator/clients/${clientId}/suites/${version}/try`, { headers: opsHeaders() });
  expect(res.status(), await res.text()).toBe(200);
  const { runId } = (await res.json()) as { runId: string };
  let status = '';
  await expect
    .poll(
      async () => {
        const run = await request.get(`/test/runs/${runId}`, { headers: { authorization: `Bearer ${accessToken}` } });
        status = ((await run.json()) as { status: string }).status;
        return ['passed', 'failed', 'error', 'cancelled'].includes(status);
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe(true);
  return { runId, status };
}

test('an operator approves a new shot, then a changed one with "Approve all"; the next run passes and the client reads the review', async ({
  browser,
  baseURL,
  request,
  demoSession,
  demoPage,
}) => {
  test.setTimeout(300_000);
  const clientId = demoSession.userData.clientId!;
  const testName = `Looks ${process.pid}-${Date.now()}`;
  const first = await tryVersion(request, clientId, await trialVersion(request, clientId, testName, '/pricing'), demoSession.accessToken);
  expect(first.status).toBe('passed');

  // The first shot is new: the operator makes it the baseline.
  const ops = await operatorPage(browser, baseURL!, 'visual-ops', 'E2E Reviewer');
  await ops.page.goto(visualReviewPaths.opsPage(clientId, first.runId));
  await expect(ops.page.getByRole('heading', { name: 'Visual review', level: 1 })).toBeVisible();
  const newShot = ops.page.getByRole('listitem', { name: 'Page on Chromium · desktop' });
  await expect(newShot.getByText('New', { exact: true })).toBeVisible();
  await newShot.getByRole('button', { name: 'Approve Page on Chromium · desktop' }).click();
  await expect(ops.page.getByRole('dialog')).toContainText('"Page" on Chromium · desktop approved: it is the baseline of later runs (version 1)');
  await ops.page.getByRole('button', { name: 'Close' }).click();
  await expect(newShot).toContainText('Approved by E2E Reviewer');

  // Another page under the same name: the shot changed; the console shows baseline, current and diff.
  const version2 = await trialVersion(request, clientId, testName, '/services');
  const second = await tryVersion(request, clientId, version2, demoSession.accessToken);
  expect(second.status).toBe('failed');
  await ops.page.goto(visualReviewPaths.opsPage(clientId, second.runId));
  const changed = ops.page.getByRole('listitem', { name: 'Page on Chromium · desktop' });
  await expect(changed.getByText('Changed', { exact: true })).toBeVisible();
  await expect(changed.getByText('Pixels changed', { exact: true })).toBeVisible();
  await expect(changed.getByText('Region', { exact: true })).toBeVisible();
  for (const alt of ['Baseline', 'Current', 'Diff']) await expect(changed.getByRole('img', { name: alt })).toBeVisible();
  await expect(changed.getByRole('button', { name: 'Reject and open bug: Page on Chromium · desktop' })).toBeVisible();
  await shots(ops.page, 'ops-visual-review');
  await ops.page.getByRole('button', { name: 'Approve all (1)' }).click();
  await expect(ops.page.getByRole('dialog')).toContainText('1 shot approved: the baselines of later runs.');
  await ops.page.getByRole('button', { name: 'Close' }).click();
  await expect(ops.page.getByRole('button', { name: /Approve all/ })).toHaveCount(0);
  await ops.context.close();

  // Approved, then run again: it passes.
  expect((await tryVersion(request, clientId, version2, demoSession.accessToken)).status).toBe('passed');

  // The client reads the same review on the run's page, without a single decision to make.
  await demoPage.goto(`${paths.history}/${second.runId}`);
  const review = demoPage.getByRole('region', { name: 'Visual review' });
  await expect(review).toContainText('Approved by E2E Reviewer');
  await expect(review.getByRole('img', { name: 'Diff' })).toBeVisible();
  await expect(review.getByRole('button')).toHaveCount(0);
  await shots(demoPage, 'portal-visual-review');
});
