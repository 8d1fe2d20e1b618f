import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildReportHtml } from '../src/reporters/html-reporter.ts';
import { renderReportHtml } from '../src/reporters/html/render-report.ts';
import { sampleReport } from '../src/reporters/sample-report.ts';
import { mobileUiRunner } from '../src/runners/mobile-ui/index.ts';
import { runInSandbox } from '../src/sandbox/index.ts';
import type { MobileUiSummary } from '../src/runners/mobile-ui/facts.ts';
import type { RunContext, RunnerResult, RunTarget } from '../src/types.ts';
import { type AppiumServer, FAKE_APP, FAKE_CAPABILITIES, FAKE_SUITE, startAppium } from './fixtures/appium-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

// The whole path against a real Appium server with Appium's fake driver (issue 28): no device, no network.
let appium: AppiumServer;
beforeAll(async () => {
  appium = await startAppium();
}, 90_000);
afterAll(() => appium?.close());

const target = (over: Partial<RunTarget> = {}) => localTarget('http://127.0.0.1:9', { androidApp: FAKE_APP, appium: { url: appium.url }, ...over });
const run = (options: Record<string, unknown>, ctx: RunContext, over: Partial<RunTarget> = {}) =>
  mobileUiRunner.run(testOf('mobile-ui', { platform: 'android', capabilities: FAKE_CAPABILITIES, stepTimeoutSeconds: 5, waitforTimeoutSeconds: 1, ...options }, { suiteDir: FAKE_SUITE }), target(over), ctx);
const summaryOf = (result: RunnerResult) => {
  if (result.summary.kind !== 'mobile-ui') throw new Error(`not a mobile UI summary: ${result.error}`);
  return result.summary as MobileUiSummary;
};
const isPng = async (ctx: RunContext, rel: string) => (await readFile(path.join(ctx.runDir, rel))).subarray(0, 4).toString('latin1') === '\x89PNG';

describe('mobile-ui runner (Appium fake driver)', () => {
  it('runs a passing spec: a screenshot after each step, the device in the header, no session left', async () => {
    const ctx = await makeContext();
    const result = await run({ specs: 'specs/sign-in.spec.ts' }, ctx);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('passed');
    const s = summaryOf(result);
    expect(s.cases.map((c) => [c.name, c.status])).toEqual([
      ['sign-in.spec.ts › Sign in › shows the welcome text', 'passed'],
      ['sign-in.spec.ts › Sign in › types an email and taps Sign in', 'passed'],
    ]);
    // The acting commands of a step are its steps.
    expect(s.cases[1]?.steps?.map((st) => st.title)).toEqual(['elementClear', 'elementSendKeys "ada@acme.test"', 'elementClick']);
    for (const c of s.cases) {
      expect(c.screenshot).toMatch(/^mobile-ui\/device-1\/\d{3}\.png$/);
      expect(await isPng(ctx, c.screenshot!)).toBe(true);
      expect(result.artifacts).toContainEqual(expect.objectContaining({ path: c.screenshot, kind: 'screenshot' }));
    }
    expect(s.devices).toEqual([
      expect.objectContaining({ label: 'Fake Pixel (14)', platformName: 'Fake', deviceName: 'Fake Pixel', platformVersion: '14', appVersion: null, performanceNote: 'not reported by this device' }),
    ]);
    expect(s.devices[0]!.coldStartMs).toBeGreaterThan(0);
    // The session's id, by which a cloud finds its video and logs (the server adds their links).
    expect(s.devices[0]!.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.pageSources).toEqual([]);
    expect(await appium.sessions()).toEqual([]);
    // The html report shows each passing step's screenshot, read from the run's folder (docs/mobile-ui.md).
    const html = await buildReportHtml(sampleReport({ kind: 'mobile-ui', status: result.status, totals: result.totals, summary: result.summary, artifacts: result.artifacts }), { runDir: ctx.runDir });
    expect(html).toContain('<h2>Screenshots after each step (2)</h2>');
    expect(html.match(/<img class="shot" src="data:image\/jpeg;base64,/g)?.length).toBe(2);
  });

  it('fails at the named step, with its screenshot and the page source at the failure', async () => {
    const ctx = await makeContext();
    const result = await run({ specs: ['specs/sign-in.spec.ts', 'specs/checkout.spec.ts'] }, ctx);
    expect(result.status).toBe('failed');
    expect(result.totals).toEqual({ totalTests: 4, passedTests: 3, failedTests: 1, skippedTests: 0 });
    const s = summaryOf(result);
    const failed = s.cases.find((c) => c.status === 'failed')!;
    expect(failed.name).toBe('checkout.spec.ts › Checkout › taps Pay now');
    expect(failed.error).toMatch(/~pay-now/);
    expect(await isPng(ctx, failed.screenshot!)).toBe(true);
    expect(s.pageSources).toEqual([{ case: failed.name, path: expect.stringMatching(/page-source\.xml$/), excerpt: expect.stringContaining('Welcome to Acme Shop'), truncated: false }]);
    expect(await readFile(path.join(ctx.runDir, s.pageSources[0]!.path), 'utf8')).toContain('<MockButton id="sign-in"');
    expect(result.artifacts).toContainEqual(expect.objectContaining({ path: s.pageSources[0]!.path, contentType: 'application/xml' }));
    // The report inlines the failed step's screenshot and page source, and the other steps' screenshots.
    const html = renderReportHtml(sampleReport({ kind: 'mobile-ui', status: result.status, totals: result.totals, summary: result.summary }), { image: (p) => `data:image/png;base64,${p}` });
    expect(html).toContain(`src="data:image/png;base64,${failed.screenshot}"`);
    expect(html).toContain('<h2>Page source at the failure</h2>');
    expect(html).toContain('&lt;MockButton id=&quot;sign-in&quot;');
    expect(html).toContain('<h2>Screenshots after each step (3)</h2>');
    expect(html).toMatch(/<td>Fake Pixel \(14\)<div class="muted small">Session <code>[0-9a-f-]{36}<\/code><\/div><\/td><td>Fake Pixel, Fake 14<\/td><td>unknown<\/td>/);
    expect(await appium.sessions()).toEqual([]);
  });

  it('fails a step that takes longer than stepTimeoutSeconds and goes on with the next', async () => {
    const ctx = await makeContext();
    const result = await run({ specs: 'specs/slow.spec.ts', stepTimeoutSeconds: 1 }, ctx);
    const s = summaryOf(result);
    expect(s.cases.map((c) => [c.name, c.status, c.error])).toEqual([
      ['slow.spec.ts › Slow › waits longer than a step may', 'failed', 'the step timed out after 1 s (stepTimeoutSeconds)'],
      ['slow.spec.ts › Slow › runs after the slow step', 'passed', undefined],
    ]);
    expect(await appium.sessions()).toEqual([]);
  });

  it("ends the session when the test's time runs out in a hung step", async () => {
    const ctx = await makeContext();
    const result = await run({ specs: 'specs/hang.spec.ts', stepTimeoutSeconds: 600, testTimeoutSeconds: 10 }, ctx);
    expect(result.status).toBe('failed');
    const s = summaryOf(result);
    expect(s.cases.map((c) => [c.name, c.status])).toEqual([
      ['hang.spec.ts › Hang › taps Sign in', 'passed'],
      ['hang.spec.ts › Hang › never ends', 'failed'],
    ]);
    expect(s.cases[1]!.error).toBe("the test's time ran out during this step (testTimeoutSeconds)");
    expect(result.error).toMatch(/time ran out .* its session was ended/);
    expect(await appium.sessions()).toEqual([]);
  });

  it('ends the session itself when the attempt is aborted and its spec process killed', async () => {
    const controller = new AbortController();
    const ctx = await makeContext({ signal: controller.signal });
    const running = run({ specs: 'specs/hang.spec.ts', stepTimeoutSeconds: 600 }, ctx);
    // Aborted while the session is open, in the hung step (the first step's screenshot is there).
    const firstShot = path.join(ctx.runDir, 'mobile-ui/device-1/001.png');
    const until = Date.now() + 30_000;
    while (!(await stat(firstShot).catch(() => null)) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(await appium.sessions()).toHaveLength(1);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ status: 'error', errorCode: 'aborted' });
    expect(ctx.logs.some((l) => l.startsWith('mobile UI session ended by the runner') && l.includes('"ended":true'))).toBe(true);
    expect(await appium.sessions()).toEqual([]);
  });

  it('runs in a runner process of the sandbox like every kind', async () => {
    const ctx = await makeContext();
    const result = await runInSandbox({
      test: testOf('mobile-ui', { specs: 'specs/checkout.spec.ts', platform: 'android', capabilities: FAKE_CAPABILITIES, waitforTimeoutSeconds: 1 }, { suiteDir: FAKE_SUITE }),
      target: target(),
      ctx: { runDir: ctx.runDir, chromiumPath: ctx.chromiumPath, workers: 1, signal: ctx.signal, log: ctx.log, warmRunners: 0 },
      limits: { timeSeconds: 120, memoryMb: 1024 },
      attemptKey: `mobile-ui-${process.pid}`,
    });
    expect(result.error).toBeUndefined();
    expect(result.totals).toEqual({ totalTests: 2, passedTests: 1, failedTests: 1, skippedTests: 0 });
    expect(await appium.sessions()).toEqual([]);
  });

  it('fails with the reason when a spec file does not load, and ends its session', async () => {
    // The broken spec is written at run time: a .ts file with a syntax error would break the repository's type check.
    const suiteDir = await mkdtemp(path.join(tmpdir(), 'fullstop-mobile-suite-'));
    onTestFinished(() => rm(suiteDir, { recursive: true, force: true }));
    await writeFile(path.join(suiteDir, 'broken.spec.ts'), await readFile(path.join(FAKE_SUITE, 'broken/broken.spec.txt'), 'utf8'));
    const test = testOf('mobile-ui', { specs: '*.spec.ts', platform: 'android', capabilities: FAKE_CAPABILITIES }, { suiteDir });
    const result = await mobileUiRunner.run(test, target(), await makeContext());
    expect(result.status).toBe('failed');
    expect(result.error).toBe('Fake Pixel (14): a spec file would not load: broken.spec.ts:5: Expression expected');
    expect(await appium.sessions()).toEqual([]);
  });

  it('refuses an Appium endpoint at a private address unless the target allows it', async () => {
    const result = await run({ specs: 'specs/sign-in.spec.ts' }, await makeContext(), { allowPrivateAddresses: false });
    expect(result).toMatchObject({ status: 'error', errorCode: 'target_policy' });
    expect(await appium.sessions()).toEqual([]);
  });

  it('connects to the addresses the target policy judged, never to a second answer of DNS', async () => {
    // appium.test resolves nowhere; the policy's lookup answers 127.0.0.1 once, and every connection goes there.
    const lookups: string[] = [];
    const ctx = await makeContext({ network: { lookup: async (hostname) => (lookups.push(hostname), [{ address: '127.0.0.1', family: 4 }]) } });
    const port = new URL(appium.url).port;
    const result = await run({ specs: 'specs/sign-in.spec.ts' }, ctx, { appium: { url: `http://appium.test:${port}/` } });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('passed');
    expect(lookups).toEqual(['appium.test']);
    expect(await appium.sessions()).toEqual([]);
  });

  it('says what is missing: no build for the platform, no provider', async () => {
    const noApp = await run({ specs: 'specs/sign-in.spec.ts', platform: 'ios' }, await makeContext());
    expect(noApp).toMatchObject({ status: 'error', errorCode: 'no_app', error: 'no iOS (IPA) build has been uploaded' });
    const noProvider = await run({ specs: 'specs/sign-in.spec.ts' }, await makeContext(), { appium: null });
    expect(noProvider).toMatchObject({ status: 'error', errorCode: 'no_appium_endpoint' });
  });
});
