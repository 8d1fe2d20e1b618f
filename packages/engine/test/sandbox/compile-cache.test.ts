import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer, html } from '../fixtures/fixture-server.ts';
import { runReportingSpec, writeSuite } from '../fixtures/reporting-spec.ts';

/**
 * Playwright keeps the files it compiles (specs, and everything it loads that is not in node_modules) in a cache it
 * reads before compiling again, by default a folder of the user's in /tmp. Attempts of different clients run as the
 * same runner user one after another: a spec that wrote there would have its code loaded by the next client's run.
 * Each attempt has a cache of its own.
 */
describe("Playwright's compile cache", () => {
  let suiteDir: string;
  let site: FixtureServer;
  beforeAll(async () => {
    site = await startFixtureServer({ '/': (_req, res) => void res.end(html('Shop', '<h1>Shop</h1>')) }, (_req, res) => void res.writeHead(404).end());
    suiteDir = await writeSuite('fullstop-compile-cache-', {
      'cache.spec.ts': [
        "import { existsSync, mkdirSync, writeFileSync } from 'node:fs';",
        "import { tmpdir } from 'node:os';",
        "import path from 'node:path';",
        "import { test } from '@playwright/test';",
        // Where Playwright's compilation cache is (its compilationCache.ts): what a hostile spec would write into.
        "const cacheDir = process.env.PWTEST_CACHE_DIR || path.join(tmpdir(), 'playwright-transform-cache-' + process.geteuid!());",
        "test('finds what an earlier attempt left in the compile cache, then leaves something', () => {",
        "  const mark = path.join(cacheDir, 'left-by-an-earlier-attempt');",
        '  writeFileSync(process.env.FULLSTOP_CACHE_TEST_OUT!, JSON.stringify({ cacheDir, found: existsSync(mark) }));',
        '  mkdirSync(cacheDir, { recursive: true });',
        "  writeFileSync(mark, 'module.exports = 1;');",
        '});',
      ],
    });
  });
  afterAll(async () => {
    await site?.close();
    if (suiteDir) await rm(suiteDir, { recursive: true, force: true });
  });

  const attempt = async () => {
    const { result, seen, runDir } = await runReportingSpec<{ cacheDir: string; found: boolean }>(suiteDir, 'cache.spec.ts', site.url, 'FULLSTOP_CACHE_TEST_OUT');
    expect(result.totals.passedTests, result.error).toBe(1);
    return { ...seen, runDir };
  };

  it("is the attempt's own: nothing one attempt's spec leaves there reaches the next attempt", async () => {
    const first = await attempt();
    const second = await attempt();
    expect(second.found).toBe(false);
    expect(first.cacheDir.startsWith(first.runDir)).toBe(true);
    expect(second.cacheDir).not.toBe(first.cacheDir);
  }, 120_000);
});
