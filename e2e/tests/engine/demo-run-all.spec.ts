import type { Insights, LoginResponse, ReportGroups } from '@fullstop/contracts';
import { expect } from '@playwright/test';
import { DEMO, loginThroughApi, test } from '../../support/portal.ts';

/** The whole demo suite runs against this server; on 2 shared cores it takes well under this. */
const RUN_ALL_BUDGET_MS = 150_000;

/** Entry names of a zip (central directory), enough to check an archive is whole and holds what it should. */
function zipEntryNames(buf: Buffer): string[] {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd, 'end of central directory').toBeGreaterThan(0);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    expect(buf.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = buf.readUInt16LE(at + 28);
    names.push(buf.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return names;
}

test.describe.configure({ mode: 'serial' });

test('the demo’s "Run all tests" fills the four insights, and every report format downloads and opens', async ({ page }) => {
  test.setTimeout(RUN_ALL_BUDGET_MS + 60_000);
  const session: LoginResponse = await loginThroughApi(page, DEMO);
  const auth = { authorization: `Bearer ${session.accessToken}` };

  // The call the portal's "Run All Tests" button makes: queued at once, with the message the alert shows.
  const started = Date.now();
  const queued = await page.request.get('/test/run/all', { headers: auth });
  expect(queued.status()).toBe(200);
  const { message, runId } = (await queued.json()) as { message: string; runId: string };
  expect(message).toBe(`All tests queued: 8 tests (run ${runId})`);
  expect(Date.now() - started).toBeLessThan(5000);

  await expect
    .poll(async () => (await (await page.request.get(`/test/runs/${runId}`, { headers: auth })).json()).status as string, {
      timeout: RUN_ALL_BUDGET_MS,
      intervals: [2000],
    })
    .toMatch(/^(passed|failed)$/);
  test.info().annotations.push({ type: 'run-all seconds', description: ((Date.now() - started) / 1000).toFixed(1) });

  const insights = (await (await page.request.get('/insight/fetch/all', { headers: auth })).json()) as Insights;
  expect(Object.keys(insights).sort()).toEqual(['frontend-report', 'load', 'security-report', 'zap']);
  expect(insights.load!.totalRequests).toBeGreaterThan(0);
  expect(insights.load!.successfulRequests + insights.load!.failedRequestsCount).toBe(insights.load!.totalRequests);
  expect(insights['frontend-report']!.totalTests).toBeGreaterThan(0);
  expect(insights['security-report']!.totalTests).toBeGreaterThan(0);
  expect(Object.keys(insights.zap!).sort()).toEqual(['False Positives', 'High', 'Informational', 'Low', 'Medium']);

  // Every report, every format: the right type, and each one opens.
  const reports = (await (await page.request.get('/report/fetch/all', { headers: auth })).json()) as ReportGroups;
  const entries = Object.values(reports).flatMap((group) => Object.entries(group));
  expect(entries).toHaveLength(8);
  const seen = new Set<string>();
  await page.setExtraHTTPHeaders(auth);
  for (const [name, report] of entries) {
    for (const { format } of report.formats ?? []) {
      seen.add(format);
      const url = `/report/fetch/${encodeURIComponent(name)}/${format}`;
      const res = await page.request.get(url, { headers: auth });
      expect(res.status(), `${name} ${format}`).toBe(200);
      const body = await res.body();
      if (format === 'json') {
        expect(res.headers()['content-type']).toBe('application/json');
        expect(JSON.parse(body.toString('utf8')).testName).toBe(name);
      } else if (format === 'html') {
        expect(res.headers()['content-type']).toContain('text/html');
        await page.goto(url);
        await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
      } else if (format === 'zip') {
        expect(res.headers()['content-type']).toBe('application/zip');
        expect(zipEntryNames(body)).toEqual(expect.arrayContaining(['report.json', 'report.html']));
      } else if (format === 'xml') {
        expect(res.headers()['content-type']).toBe('application/xml');
        expect(body.toString('utf8')).toMatch(/^<\?xml[^>]*>\s*<testsuites /);
      }
    }
  }
  expect([...seen].sort()).toEqual(['html', 'json', 'xml', 'zip']);
});

test('the portal then shows the four insight cards and the suite with its Run All Tests button', async ({ page }) => {
  await loginThroughApi(page, DEMO);
  await page.goto('/dashboard/insights');
  for (const title of ['Load Insights', 'Zap Insights', 'Frontend Test Insights', 'Security Test Insights']) {
    await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
  }
  await page.goto('/dashboard/tests');
  await expect(page.getByRole('button', { name: 'Run All Tests' })).toBeVisible();
  await expect(page.getByText('Frontend').first()).toBeVisible();
});
