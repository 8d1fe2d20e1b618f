import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Locator, type Page, selectors } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ElementFingerprint, elementFingerprint, fingerprintsFile, healsFile } from '@fullstop/contracts';
import { browserRunner } from '../src/runners/browser/index.ts';
import { CHROMIUM_FLAGS, playwrightChromiumArgs } from '../src/lib/chromium.ts';
import { healedSection } from '../src/runners/browser/healing/heal-report.ts';
import { FINGERPRINT_ENGINE, FINGERPRINT_ENGINE_SOURCE } from '../src/runners/browser/healing/in-page.ts';
import { readFingerprint } from '../src/runners/browser/healing/install.ts';
import { fingerprintFromPage } from '../src/runners/browser/healing/ingest.ts';
import { hookFiles } from '../src/runners/browser/healing/own-files.ts';
import { decide, HEAL_MIN_MARGIN, HEAL_MIN_SCORE, scoreCandidate } from '../src/runners/browser/healing/score.ts';
import type { CaseResult, RunnerResult } from '../src/types.ts';
import { startHealingSite } from './fixtures/healing-site.ts';
import { serverForSuite, suiteCopyForSuite } from './fixtures/suite-server.ts';
import { CHROMIUM_PATH, localTarget, makeContext, testOf } from './helpers.ts';

const SEND = "getByRole('button', { name: 'Send', exact: true })";
const HEADING = 'shows the contact heading';
const HEALS = 'sends a message';
const ALIKE = 'sends a message from the look-alike page';

function casesOf(result: RunnerResult): Record<string, CaseResult> {
  if (result.summary.kind !== 'browser') throw new Error('wrong summary');
  return Object.fromEntries(result.summary.cases.map((c) => [c.name.replace('contact.spec.ts › ', ''), c]));
}

/**
 * Healed locators (decision 0101), in Chromium against a site in two versions: the suite passes on the first and
 * leaves fingerprints; on the second, a relabelled button heals (failing or passing its case, or not at all), and
 * two look-alike buttons heal nothing. One Playwright run a scenario.
 */
describe('healing locators', () => {
  const site = serverForSuite(startHealingSite);
  const suite = suiteCopyForSuite('healing-suite');
  let saved: string;
  let keep: string;
  beforeAll(async () => {
    keep = await mkdtemp(path.join(tmpdir(), 'fullstop-healing-'));
    saved = path.join(keep, 'fingerprints.json');
  });
  afterAll(() => rm(keep, { recursive: true, force: true }));

  // A case that heals nothing (the look-alikes; every case of 'off') fails at its test's timeout: 15 s, where a heal is
  // tried after 1.4 s of it (HEAL_AFTER_FRACTION) and a page of this site loads in well under a second.
  const run = async (healing: 'fail' | 'pass' | 'off', fingerprints?: string) => {
    const ctx = await makeContext({ workers: 2, ...(fingerprints ? { healingFingerprints: fingerprints } : {}) });
    const result = await browserRunner.run(testOf('browser', { healing, testTimeoutMs: 15_000 }, { suiteDir: suite.dir }), localTarget(site.url), ctx);
    return { result, ctx, cases: casesOf(result) };
  };

  it('version 1 passes and records what each call site found, from passing tests only', async () => {
    site.setVersion('v1');
    const { result, ctx, cases } = await run('fail');
    expect(result.error).toBeUndefined();
    expect(Object.values(cases).map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
    const file = path.join(ctx.runDir, 'browser/fingerprints.json');
    const recorded = fingerprintsFile.parse(JSON.parse(await readFile(file, 'utf8')));
    const send = recorded.sites.find((s) => s.site.locator === SEND);
    expect(send?.site).toMatchObject({ file: 'helpers.ts', line: 7 });
    expect(send?.fingerprint).toMatchObject({ tag: 'button', role: 'button', name: 'Send', text: 'Send', id: 'send', classes: ['btn', 'primary'] });
    expect(send?.fingerprint.neighbours.heading).toBe('Contact us');
    // One record a call site, whichever test reached it first: the helper's lines once, the heading's assertion once.
    expect(recorded.sites.map((s) => `${s.site.file}:${s.site.line}`).sort()).toEqual(['contact.spec.ts:7', 'helpers.ts:6', 'helpers.ts:7', 'helpers.ts:8']);
    expect(result.artifacts.map((a) => a.path)).toEqual(expect.arrayContaining(['browser/fingerprints.json', 'browser/heals.json']));
    await copyFile(file, saved);
  });

  it("version 2, healing 'fail': the relabelled button heals and fails its case with old and new locator; look-alikes heal nothing", async () => {
    site.setVersion('v2');
    const { result, ctx, cases } = await run('fail', saved);
    expect(result.status).toBe('failed');
    expect(cases[HEADING]?.status).toBe('passed');
    const healed = cases[HEALS]!;
    expect(healed.status).toBe('failed');
    expect(healed.error).toMatch(/^(Error: )?healed: page\.getByRole\('button', \{ name: 'Send', exact: true \}\) → page\.getByRole\('button', \{ name: 'Send message', exact: true \}\) \(score 0\.\d+, no other candidate|runner-up 0\.\d+/);
    expect(healed.error).toContain(`the button's label changed from "Send" to "Send message"`);
    expect(healed.healed).toEqual([
      expect.objectContaining({
        site: expect.objectContaining({ file: 'helpers.ts', line: 7, locator: SEND }),
        oldLocator: `page.${SEND}`,
        newLocator: "page.getByRole('button', { name: 'Send message', exact: true })",
        change: expect.stringContaining('its id changed from "send" to "send-message"'),
        screenshot: expect.stringMatching(/^browser\/healing\/heal-.+\.png$/),
      }),
    ]);
    const [heal] = healed.healed!;
    // The report says it in a client's words.
    expect(healedSection(Object.values(cases))).toMatch(/Healed locators \(1\).*Healed: The button&#39;s label changed from &quot;Send&quot; to &quot;Send message&quot;/);
    expect(heal!.score).toBeGreaterThanOrEqual(HEAL_MIN_SCORE);
    const shot = await readFile(path.join(ctx.runDir, heal!.screenshot!));
    expect(shot.subarray(1, 4).toString()).toBe('PNG');

    // Two look-alikes: no heal, and the failure says why, naming both.
    const alike = cases[ALIKE]!;
    expect(alike.status).toBe('failed');
    expect(alike.healed).toBeUndefined();
    expect(alike.error).toMatch(/not healed: two candidates score alike: button "Send (now|later)" \(0\.\d\d\), button "Send (now|later)" \(0\.\d\d\)/);

    const heals = healsFile.parse(JSON.parse(await readFile(path.join(ctx.runDir, 'browser/heals.json'), 'utf8'))).heals;
    expect(heals).toHaveLength(1);
    expect(heals[0]).toMatchObject({ test: `contact.spec.ts › ${HEALS}`, mode: 'fail', fingerprint: { name: 'Send', id: 'send' } });
    expect(heals[0]!.candidates[0]).toMatchObject({ description: 'button "Send message"', score: heal!.score });
    expect(result.artifacts).toEqual(expect.arrayContaining([expect.objectContaining({ path: heal!.screenshot, kind: 'screenshot' })]));
    // A failed case leaves no fingerprint: only the heading's test passed.
    const recorded = fingerprintsFile.parse(JSON.parse(await readFile(path.join(ctx.runDir, 'browser/fingerprints.json'), 'utf8')));
    expect(recorded.sites.map((s) => s.site.file)).toEqual(['contact.spec.ts']);
  });

  it("version 2, healing 'pass': the case passes, marked healed", async () => {
    const { cases } = await run('pass', saved);
    expect(cases[HEALS]).toMatchObject({ status: 'passed', healed: [expect.objectContaining({ newLocator: "page.getByRole('button', { name: 'Send message', exact: true })" })] });
    expect(cases[HEALS]?.error).toBeUndefined();
    expect(cases[ALIKE]?.status).toBe('failed');
  });

  it("version 2, healing 'off': it fails as before, and still records fingerprints", async () => {
    const { ctx, cases } = await run('off', saved);
    expect(cases[HEALS]?.status).toBe('failed');
    expect(cases[HEALS]?.healed).toBeUndefined();
    expect(cases[HEALS]?.error).not.toMatch(/healed/);
    expect(healsFile.parse(JSON.parse(await readFile(path.join(ctx.runDir, 'browser/heals.json'), 'utf8'))).heals).toEqual([]);
    const recorded = fingerprintsFile.parse(JSON.parse(await readFile(path.join(ctx.runDir, 'browser/fingerprints.json'), 'utf8')));
    expect(recorded.sites).toHaveLength(1);
    expect((await stat(path.join(ctx.runDir, 'browser/fingerprints.json'))).size).toBeGreaterThan(0);
  });
});

describe('healing scores', () => {
  const button = (over: Partial<ElementFingerprint>): ElementFingerprint => ({
    tag: 'button',
    role: 'button',
    name: 'Send',
    text: 'Send',
    id: 'send',
    classes: ['btn', 'primary'],
    attributes: { type: 'button' },
    neighbours: { heading: 'Contact us' },
    box: { x: 0.01, y: 0.17, width: 0.04, height: 0.03 },
    index: 0,
    ...over,
  });

  it('the same element scores 1; a test id that stayed outweighs a new label', () => {
    expect(scoreCandidate(button({}), button({}))).toBe(1);
    const old = button({ testId: 'send' });
    const kept = scoreCandidate(old, button({ testId: 'send', name: 'Submit', text: 'Submit', id: 'x' }));
    const lost = scoreCandidate(old, button({ testId: 'other' }));
    expect(kept).toBeGreaterThan(lost);
  });

  it('a clear winner heals; two alike or none alike do not', () => {
    const old = button({});
    const relabelled = { item: 1, fingerprint: button({ name: 'Send message', text: 'Send message', id: 'send-message' }) };
    const link = { item: 2, fingerprint: button({ tag: 'a', role: 'link', name: 'Home', text: 'Home', id: undefined, classes: [], attributes: {}, box: { x: 0.5, y: 0.9, width: 0.1, height: 0.03 }, index: 3 }) };
    expect(decide(old, [relabelled, link])).toMatchObject({ healed: true, winner: { item: 1 } });
    const twin = { item: 3, fingerprint: button({ name: 'Send message', text: 'Send message', id: 'send-message-2', index: 1 }) };
    const alike = decide(old, [relabelled, twin]);
    expect(alike.healed).toBe(false);
    if (!alike.healed) expect(alike.why).toMatch(/^two candidates score alike: button "Send message" \(0\.\d\d\), button "Send message" \(0\.\d\d\)$/);
    const none = decide(old, [link]);
    expect(none).toMatchObject({ healed: false, why: expect.stringContaining(`below ${HEAL_MIN_SCORE}`) });
    expect(HEAL_MIN_MARGIN).toBeGreaterThan(0);
  });

  it('what a page answers is bounded and checked, never taken as is', () => {
    expect(fingerprintFromPage({ tag: 'button', name: 'x'.repeat(10_000), classes: Array(100).fill('c'), index: 2, box: { x: 1, y: 2, width: 3, height: Infinity } })).toMatchObject({
      name: 'x'.repeat(160),
      classes: Array(8).fill('c'),
      index: 2,
    });
    expect(fingerprintFromPage({ tag: 'button', classes: [], index: 0, box: { x: 0, y: 0, width: 1, height: Number.NaN } })?.box).toBeUndefined();
    expect(fingerprintFromPage(null)).toMatchObject({ tag: 'element' });
    expect(fingerprintFromPage({ get tag() { throw new Error('hostile'); } })).toBeNull();
    // The worker does not run the schema (zod stays out of its hot path): what it keeps must pass it all the same.
    const far = fingerprintFromPage({ tag: 'button', classes: ['a'], index: 1, box: { x: 1e9, y: -1e9, width: 1, height: 1 } });
    expect(far?.box).toEqual({ x: 1000, y: -1000, width: 1, height: 1 });
    expect(elementFingerprint.safeParse(far).success).toBe(true);
    const full = (c: string, n: number) => ({
      tag: 'button', name: c.repeat(n), text: c.repeat(n), label: c.repeat(n), testId: c.repeat(n), id: c.repeat(n), classes: Array(20).fill(c.repeat(n)), index: 0,
      attributes: Object.fromEntries(['name', 'type', 'placeholder', 'title', 'alt', 'href'].map((a) => [a, c.repeat(n)])),
      neighbours: { previous: c.repeat(n), next: c.repeat(n), heading: c.repeat(n) },
    });
    const plain = fingerprintFromPage(full('x', 30));
    expect(plain).not.toBeNull();
    expect(elementFingerprint.safeParse(plain).success).toBe(true);
    // Quotes double in JSON: past MAX_FINGERPRINT_BYTES, no fingerprint, as the schema would refuse it.
    expect(fingerprintFromPage(full('"', 200))).toBeNull();
  });

  it("the hook's graph loads in a worker without Babel or zod: every file it imports is one Playwright leaves to Node", () => {
    const external = hookFiles();
    const left = (file: string) => external.some((p) => (p.endsWith('/**') ? file.startsWith(p.slice(0, -2)) : file === p));
    const resolve = createRequire(import.meta.url).resolve;
    const hook = fileURLToPath(new URL('../src/runners/browser/healing/hook.ts', import.meta.url));
    const seen = new Set<string>();
    const queue = [hook];
    const packages = new Set<string>();
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      // Static and dynamic imports that load code (`import type` is erased, so it loads nothing).
      for (const m of source.matchAll(/^import (?!type )[^'";]*?from '([^']+)'|^export [^'";]*? from '([^']+)'|import\('([^']+)'\)|^import '([^']+)'/gm)) {
        const spec = m[1] ?? m[2] ?? m[3] ?? m[4]!;
        if (spec.startsWith('node:')) continue;
        if (spec.startsWith('.')) queue.push(fileURLToPath(new URL(spec, `file://${file}`)));
        else if (spec.startsWith('@fullstop/')) queue.push(resolve(spec));
        else packages.add(spec);
      }
    }
    expect([...seen].filter((f) => !left(f))).toEqual([]);
    expect(seen.has(fileURLToPath(new URL('../src/runners/browser/healing/install.ts', import.meta.url)))).toBe(true);
    expect([...packages].sort()).toEqual(['@playwright/test', 'pngjs']);
  });
});

/**
 * How the hook reads a fingerprint at an action's call site (install.ts `readFingerprint`), in Chromium: one query that
 * never waits for the element, so a step whose element renders late pays nothing, and a strict one.
 */
describe('reading a fingerprint', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    await selectors.register(FINGERPRINT_ENGINE, { content: FINGERPRINT_ENGINE_SOURCE }, { contentScript: true });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: playwrightChromiumArgs(CHROMIUM_FLAGS) });
    page = await browser.newPage();
    await page.setContent(
      `<h1>Contact us</h1><button id="send" class="btn">Send</button><button>Alike</button><button>Alike</button>
       <iframe srcdoc="<button id='inner'>Inside</button>"></iframe>`,
    );
    await page.frameLocator('iframe').getByRole('button').waitFor();
  });
  afterAll(() => browser?.close());

  const read = async (locator: Locator, options?: { found?: boolean }) => {
    const json = await readFingerprint(locator as never, options);
    return json ? JSON.parse(json) : null;
  };

  it('answers the one element found, nothing where none is, and nothing where several are', async () => {
    expect(await read(page.getByRole('button', { name: 'Send' }))).toMatchObject({ tag: 'button', id: 'send', name: 'Send', neighbours: { heading: 'Contact us' } });
    expect(await read(page.getByRole('button', { name: 'Send' }), { found: true })).toMatchObject({ id: 'send' });
    expect(await read(page.getByRole('button', { name: 'Gone' }))).toBeNull();
    expect(await read(page.getByRole('button', { name: 'Alike' }))).toBeNull();
  });

  it('reads an element inside a frame, which the one query cannot name', async () => {
    expect(await read(page.frameLocator('iframe').getByRole('button', { name: 'Inside' }))).toMatchObject({ id: 'inner', text: 'Inside' });
    expect(await read(page.frameLocator('iframe').getByRole('button', { name: 'Gone' }))).toBeNull();
  });
});
