import { readdirSync, readlinkSync } from 'node:fs';
import { apiPaths, historyRunPath } from '@fullstop/contracts';
import { expect, test } from '../../support/portal.ts';
import { shots } from '../../support/screenshots.ts';

/** The demo's slowest test: a browser crawl, wapiti and sqlmap, about a minute. */
const SLOW_TEST = 'Security scan';

/**
 * The processes working inside this run's folders (the runner, wapiti, sqlmap, browsers: a runner works in its
 * attempt's folder, and what it starts inherits it). /proc shows other users' folders to root only, as in CI; a
 * machine where it shows none cannot tell, and the check below says so rather than passing on nothing.
 */
function processesOf(runId: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).includes(runId)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

test('a client cancels a running test from its run’s page: the run ends "Cancelled" and nothing of it keeps running', async ({ demoPage: page, demoSession }) => {
  test.setTimeout(300_000);
  const auth = { authorization: `Bearer ${demoSession.accessToken}` };
  const queued = await page.request.get(`${apiPaths.runTest}/${encodeURIComponent(SLOW_TEST)}`, { headers: auth });
  expect(queued.status(), await queued.text()).toBe(200);
  const { runId } = (await queued.json()) as { runId: string };
  const status = async () => ((await (await page.request.get(`/test/runs/${runId}`, { headers: auth })).json()) as { status: string }).status;

  // It takes its turn (other specs' runs of the demo may hold the workers), then runs.
  await expect.poll(status, { timeout: 200_000, intervals: [500] }).toBe('running');
  const seesProcesses = process.geteuid?.() === 0;
  if (seesProcesses) await expect.poll(() => processesOf(runId).length, { timeout: 20_000 }).toBeGreaterThan(0);

  await page.goto(historyRunPath(runId));
  await page.getByRole('button', { name: 'Cancel run' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel the run' }).click();

  await expect.poll(status, { timeout: 30_000 }).toBe('cancelled');
  await expect(page.getByText(/^Cancelled by /).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel run' })).toHaveCount(0);
  // Stopped whole: the runner and everything it started, within seconds.
  if (seesProcesses) await expect.poll(() => processesOf(runId), { timeout: 30_000 }).toEqual([]);
  else test.info().annotations.push({ type: 'processes', description: 'not root: other users’ working folders are hidden, the processes were not checked' });
  await shots(page, 'run-cancelled');
});
