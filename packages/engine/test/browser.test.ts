import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserRunner } from '../src/runners/browser/index.ts';
import { startHardenedServer } from './fixtures/hardened-server.ts';
import { rebindingNetwork, startTwinServers } from './fixtures/rebinding.ts';
import { serverForSuite, suiteCopyForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

describe('browser runner', () => {
  const server = serverForSuite(startHardenedServer);
  const suite = suiteCopyForSuite('browser-suite');

  it('runs the suite in Chromium and reports Playwright totals, cases and artifacts', async () => {
    const ctx = await makeContext({ workers: 2 });
    const result = await browserRunner.run(testOf('browser', {}, { suiteDir: suite.dir }), localTarget(server.url), ctx);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('failed');
    expect(result.totals).toEqual({ totalTests: 4, passedTests: 2, failedTests: 1, skippedTests: 1 });
    if (result.summary.kind !== 'browser') throw new Error('wrong summary');
    const cases = [...result.summary.cases].sort((a, b) => a.name.localeCompare(b.name));
    expect(cases.map((c) => [c.name, c.status])).toEqual([
      ['broken.spec.ts › checkout works', 'skipped'],
      ['broken.spec.ts › pricing page exists', 'failed'],
      ['home.spec.ts › about page is linked from home', 'passed'],
      ['home.spec.ts › home shows its heading', 'passed'],
    ]);
    expect(cases[1]?.error).toContain('toBeVisible');

    // The failing case says what it did, step by step, and which step failed; hooks and fixtures are left out.
    const failing = cases[1]!;
    expect(failing.steps?.map((s) => s.title)).toEqual([expect.stringContaining('Navigate to "/pricing"'), expect.stringContaining('toBeVisible')]);
    expect(failing.steps?.[0]?.error).toBeUndefined();
    expect(failing.steps?.[1]?.error).toContain('toBeVisible');
    expect(failing.steps?.every((s) => s.durationMs >= 0)).toBe(true);
    expect(cases[2]?.steps?.length).toBeGreaterThan(0);
    expect(cases[0]?.steps).toBeUndefined();
    // Its screenshot and trace are files inside the run folder: a PNG and a zip.
    const screenshot = await readFile(path.join(ctx.runDir, failing.screenshot!));
    expect(screenshot.subarray(1, 4).toString()).toBe('PNG');
    const trace = await readFile(path.join(ctx.runDir, failing.trace!));
    expect(trace.subarray(0, 2).toString()).toBe('PK');
    expect(cases.filter((c) => c.screenshot || c.trace)).toEqual([failing]);

    const kinds = result.artifacts.map((a) => a.kind);
    expect(kinds.filter((k) => k === 'trace')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'screenshot')).toHaveLength(1);
    const evidence = result.artifacts.filter((a) => a.kind === 'trace' || a.kind === 'screenshot');
    expect(evidence).toHaveLength(2);
    expect(evidence).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: failing.trace, label: `Trace: ${failing.name}` }),
        expect.objectContaining({ path: failing.screenshot, label: `Screenshot: ${failing.name}` }),
      ]),
    );
    for (const artifact of result.artifacts) expect((await stat(path.join(ctx.runDir, artifact.path))).size).toBeGreaterThan(0);
    expect(await readFile(path.join(ctx.runDir, 'browser/html-report/index.html'), 'utf8')).toContain('<html');
    expect(await readFile(path.join(ctx.runDir, 'browser/junit.xml'), 'utf8')).toContain('tests="4"');
  });

  it('sends every browser request through the target policy', async () => {
    const other = await startHardenedServer();
    process.env.FULLSTOP_OTHER_ORIGIN = other.url;
    try {
      const result = await browserRunner.run(testOf('browser', { specs: 'policy.check.ts' }, { suiteDir: suite.dir }), localTarget(server.url), await makeContext());
      expect(result.totals).toEqual({ totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0 });
      expect(other.requests).toBe(0);
    } finally {
      delete process.env.FULLSTOP_OTHER_ORIGIN;
      await other.close();
    }
  });

  it('reaches a rebinding host only at the address the guard approved, pages and API requests alike', async () => {
    const twin = await startTwinServers();
    const pinnedSuite = await mkdtemp(path.join(tmpdir(), 'fullstop-suite-pinned-'));
    try {
      await writeFile(
        path.join(pinnedSuite, 'pinned.spec.ts'),
        [
          "import { expect, test } from '@playwright/test';",
          "test('the pinned site answers', async ({ page }) => {",
          "  await page.goto('/');",
          "  await expect(page.locator('h1')).toHaveText('Public');",
          "  expect((await page.request.get('/api')).status()).toBe(200);",
          '});',
        ].join('\n'),
      );
      const network = rebindingNetwork('rebind.test');
      const result = await browserRunner.run(
        testOf('browser', { specs: 'pinned.spec.ts' }, { suiteDir: pinnedSuite }),
        { baseUrl: `http://rebind.test:${twin.port}/`, allowedOrigins: [], allowPrivateAddresses: false },
        await makeContext({ network }),
      );
      expect(result.error).toBeUndefined();
      expect(result.totals).toEqual({ totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0 });
      expect(twin.publicHosts.length).toBeGreaterThanOrEqual(2);
      expect(twin.privateHits).toBe(0);
      expect(network.calls).toBe(1);
    } finally {
      await twin.close();
      await rm(pinnedSuite, { recursive: true, force: true });
    }
  });

  it('refuses a target on a private address', async () => {
    const result = await browserRunner.run(testOf('browser', {}, { suiteDir: suite.dir }), localTarget(server.url, { allowPrivateAddresses: false }), await makeContext());
    expect(result).toMatchObject({ status: 'error', errorCode: 'target_policy' });
  });

  it("compiles a CommonJS suite's TypeScript that Node alone cannot strip, without Playwright's ES module loader", async () => {
    // The loader is off for such a suite (module-mode.ts): its specs and their imports go through Playwright's
    // require hook. An enum is TypeScript Node's own type stripping refuses.
    const dir = await mkdtemp(path.join(tmpdir(), 'fullstop-module-mode-'));
    try {
      await writeFile(path.join(dir, 'paths.ts'), `export enum Paths {\n  Home = '/',\n}\n`);
      await writeFile(
        path.join(dir, 'home.spec.ts'),
        `import { expect, test } from '@playwright/test';\nimport { Paths } from './paths';\ntest('home answers', async ({ page }) => {\n  expect((await page.goto(Paths.Home))?.ok()).toBe(true);\n});\n`,
      );
      const result = await browserRunner.run(testOf('browser', {}, { suiteDir: dir }), localTarget(server.url), await makeContext());
      expect({ status: result.status, error: result.error, totals: result.totals }).toEqual({
        status: 'passed',
        error: undefined,
        totals: { totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0 },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops Playwright when the run is aborted', async () => {
    const controller = new AbortController();
    const ctx = await makeContext({ signal: controller.signal });
    setTimeout(() => controller.abort(), 1500);
    const started = Date.now();
    const result = await browserRunner.run(testOf('browser', {}, { suiteDir: suite.dir }), localTarget(server.url), ctx);
    expect(result).toMatchObject({ status: 'error', errorCode: 'aborted' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
