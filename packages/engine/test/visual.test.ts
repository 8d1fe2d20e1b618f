import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type VisualShot, type VisualSummary, visualBaselineFile, visualCandidates, visualSummary } from '@fullstop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngSize } from '../src/reporters/shrink-image.ts';
import { visualRunner } from '../src/runners/visual/index.ts';
import { report } from '../src/runners/visual/report.ts';
import type { RunnerResult } from '../src/types.ts';
import { LATE_BLOCK_PX, startLateSpa } from './fixtures/late-spa.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { CTA_BOX, startVisualSite } from './fixtures/visual-site.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

/** The visual kind (decision 0080) on Debian's Chromium and Firefox, against a site whose look the tests change. */
describe('visual regression', () => {
  const site = serverForSuite(startVisualSite);
  // The server's part, played here: the approved shots of the first run, in the folder a run is given.
  let baselineDir = '';
  beforeAll(async () => {
    baselineDir = await mkdtemp(path.join(tmpdir(), 'fullstop-baselines-'));
  });
  afterAll(() => rm(baselineDir, { recursive: true, force: true }));

  const pages = ['/', { path: '/live', mask: ['#clock'] }];
  const test = (options: Record<string, unknown> = {}) => testOf('visual', { pages, ...options }, { name: 'Shop looks right' });

  async function run(options: Record<string, unknown> = {}, withBaselines = true) {
    const ctx = await makeContext(withBaselines ? { baselineDir } : {});
    const result = await visualRunner.run(test(options), localTarget(site.url), ctx);
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'visual') throw new Error('wrong summary');
    // What the server stores and the console reads: the contracts' shape, exactly.
    expect(visualSummary.parse(result.summary)).toEqual(result.summary);
    return { result, summary: result.summary, ctx };
  }

  const byPage = (s: VisualSummary) => Object.fromEntries(s.shots.map((x) => [x.page, x])) as Record<string, VisualShot>;

  function reportHtml(result: RunnerResult, summary: VisualSummary): string {
    // Every image inlined, as the html reporter does once it has read them.
    const r = { ...result, testName: 'Shop looks right', group: 'G', kind: 'visual' } as never;
    return report.body(r, summary, { image: (p) => `data:image/png;base64,${Buffer.from(p).toString('base64')}` });
  }

  it('takes every shot as new without baselines: the run passes and offers each as a candidate', async () => {
    const { result, summary, ctx } = await run({}, false);
    expect(result.status).toBe('passed');
    expect(summary.shots.map((s) => [s.page, s.cell, s.status, s.candidate])).toEqual([
      ['/', 'chromium/desktop', 'new', true],
      ['/live', 'chromium/desktop', 'new', true],
    ]);
    for (const shot of summary.shots) {
      const png = await readFile(path.join(ctx.runDir, shot.current!.path));
      expect(pngSize(png)).toEqual({ width: 1280, height: shot.current!.height });
      expect(shot.captures).toBeGreaterThanOrEqual(2);
    }
    // The home page is taller than the screen: the whole of it was shot.
    expect(byPage(summary)['/']!.current!.height).toBeGreaterThanOrEqual(1300);
    expect(report.verdict(result as never, summary)).toBe('2 new shots, offered as baselines');
    // The clock is masked, and the report says so: what was painted over, and that it matched an element.
    expect(byPage(summary)['/live']!.mask).toEqual([{ selector: '#clock', elements: 1 }]);
    expect(byPage(summary)['/']!.mask).toBeUndefined();
    const html = reportHtml(result, summary);
    expect(html).toContain('<h2>Masked (1 shot)</h2>');
    expect(html).toContain('/live</span> <span class="muted small">Chromium · desktop</span>: #clock (1 element)');
    expect(html).toContain('<figcaption>/live on Chromium · desktop, masked: #clock (1 element)</figcaption>');
    // The server approves them: each candidate's image becomes its key's baseline.
    for (const shot of visualCandidates(summary)) await copyFile(path.join(ctx.runDir, shot.current.path), path.join(baselineDir, visualBaselineFile(shot.key)));
  });

  it('passes against its own baselines: the masked clock ticked, the carousel slid, the caret blinked, nothing flags', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const { result, summary } = await run();
    expect(result.status).toBe('passed');
    expect(summary.shots.map((s) => [s.page, s.status, s.candidate, s.changedPixels])).toEqual([
      ['/', 'unchanged', false, 0],
      ['/live', 'unchanged', false, 0],
    ]);
    expect(summary.shots.every((s) => s.baselineSha256?.length === 64)).toBe(true);
    expect(report.verdict(result as never, summary)).toBe('All 2 shots match their baselines');
  });

  it('fails a 4 px move of one button with a region that covers the button, and shows baseline, current and diff', async () => {
    site.setVariant('moved');
    try {
      const { result, summary, ctx } = await run();
      expect(result.status).toBe('failed');
      const home = byPage(summary)['/']!;
      expect(home).toMatchObject({ status: 'changed', candidate: true });
      expect(byPage(summary)['/live']!.status).toBe('unchanged');
      // The old box and the new one (4 px further right), and nothing else.
      const r = home.region!;
      expect(r.x).toBeGreaterThanOrEqual(CTA_BOX.x - 2);
      expect(r.x).toBeLessThanOrEqual(CTA_BOX.x + 4);
      expect(r.x + r.width).toBeGreaterThanOrEqual(CTA_BOX.x + CTA_BOX.width);
      expect(r.x + r.width).toBeLessThanOrEqual(CTA_BOX.x + CTA_BOX.width + 4 + 2);
      expect(r.y).toBeGreaterThanOrEqual(CTA_BOX.y - 2);
      expect(r.y + r.height).toBeLessThanOrEqual(CTA_BOX.y + CTA_BOX.height + 2);
      expect(home.changedRatio).toBeGreaterThan(home.tolerance);
      expect(home.reason).toMatch(/^0\.\d\d% of pixels changed \([\d,]+\), more than the tolerance of 0\.01%$/);
      for (const file of [home.baseline!.path, home.current!.path, home.diff!]) expect(pngSize(await readFile(path.join(ctx.runDir, file)))).not.toBeNull();
      // The run's evidence: the three images of the changed shot, first.
      expect(result.artifacts.slice(0, 3).map((a) => [a.path, a.kind])).toEqual([
        [home.baseline!.path, 'screenshot'],
        [home.current!.path, 'screenshot'],
        [home.diff!, 'screenshot'],
      ]);
      const html = reportHtml(result, summary);
      expect(html).toContain('Changed shots (1)');
      expect(html.match(/<img class="shot"/g)?.length).toBe(3);
      for (const caption of ['Baseline', 'Current', 'Diff: changes in red, the region outlined']) expect(html).toContain(`<figcaption>${caption}</figcaption>`);
      expect(html).toContain(`${r.width} × ${r.height} px at ${r.x}, ${r.y}`);
      expect(report.verdict(result as never, summary)).toBe('1 of 2 shots changed');
    } finally {
      site.setVariant('base');
    }
  });

  it('does not flag anti-aliasing: the rotated tagline moved by half a pixel', async () => {
    site.setVariant('subpixel');
    try {
      const { result, summary } = await run({ pages: ['/'] });
      const [shot] = summary.shots;
      expect(shot).toMatchObject({ status: 'unchanged' });
      // The shot did change (its pixels differ from the baseline's), by anti-aliasing only.
      expect(shot!.current!.sha256).not.toBe(shot!.baselineSha256);
      expect(shot!.changedRatio).toBeLessThanOrEqual(summary.tolerance);
      expect(result.status).toBe('passed');
    } finally {
      site.setVariant('base');
    }
  });

  it('fails a page that never settles, saying so, with its last capture and what kept changing', async () => {
    const { result, summary, ctx } = await run({ pages: ['/restless'], maxCaptures: 4 });
    expect(result.status).toBe('failed');
    const [shot] = summary.shots;
    expect(shot).toMatchObject({ status: 'failed', candidate: false, captures: 4 });
    expect(shot!.reason).toMatch(/^the page never settled: 4 captures in [\d.]+ s, no two in a row alike; it kept changing within/);
    expect(pngSize(await readFile(path.join(ctx.runDir, shot!.current!.path)))).not.toBeNull();
    expect(shot!.diff).toMatch(/unsettled-diff\.png$/);
    expect(reportHtml(result, summary)).toContain('the page never settled');
  });

  it('shoots on Firefox: its own cell and key, new against the Chromium baselines, then unchanged against its own', async () => {
    const first = await run({ pages: ['/'], engines: ['firefox'] });
    expect(first.result.status).toBe('passed');
    // The page's width: Firefox's scrollbar is not part of the shot.
    expect(first.summary.shots.map((s) => [s.cell, s.status, s.candidate, s.current?.width])).toEqual([['firefox/desktop', 'new', true, 1280]]);
    const [shot] = visualCandidates(first.summary);
    await copyFile(path.join(first.ctx.runDir, shot!.current.path), path.join(baselineDir, visualBaselineFile(shot!.key)));
    const again = await run({ pages: ['/'], engines: ['firefox'] });
    expect(again.summary.shots.map((s) => [s.status, s.changedPixels])).toEqual([['unchanged', 0]]);
  }, 180_000);
});

/** Two busy loops for the length of `work`, as on the busy machine of issue 38: processes of their own, killed after. */
async function underLoad<T>(work: () => Promise<T>): Promise<T> {
  const loops = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  try {
    return await work();
  } finally {
    for (const loop of loops) loop.kill('SIGKILL');
  }
}

/**
 * A page whose content arrives 0.6 and 1.8 s after its load (decision 0089): its baseline is the page filled in, on
 * an idle machine and on a busy one, and the unchanged page compared with it stays unchanged run after run.
 */
describe('visual regression of a page that renders late', () => {
  const late = serverForSuite(startLateSpa);

  async function run(baselineDir: string) {
    const ctx = await makeContext({ baselineDir });
    // On a phone: the cell whose baseline was an empty shell when shots did not wait for the page.
    const result = await visualRunner.run(testOf('visual', { pages: ['/'], devices: ['phone'] }, { name: 'Late shop' }), localTarget(late.url), ctx);
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'visual') throw new Error('wrong summary');
    return { summary: result.summary, ctx };
  }

  for (const machine of ['idle', 'busy'] as const) {
    it(`shoots the page once it is ready and still (${machine}), so its baseline has what rendered late; two more runs find it unchanged`, async () => {
      const baselineDir = await mkdtemp(path.join(tmpdir(), 'fullstop-late-baselines-'));
      try {
        await (machine === 'busy' ? underLoad : <T>(work: () => Promise<T>) => work())(async () => {
          const first = await run(baselineDir);
          const [shot] = first.summary.shots;
          expect(shot).toMatchObject({ cell: 'chromium/phone', status: 'new', candidate: true });
          // Ready: no reason given. The late block (1,200 px) is in the shot, full page, at CSS pixels.
          expect(shot!.reason).toBeUndefined();
          expect(shot!.current!.height).toBeGreaterThan(LATE_BLOCK_PX);
          const [candidate] = visualCandidates(first.summary);
          await copyFile(path.join(first.ctx.runDir, candidate!.current.path), path.join(baselineDir, visualBaselineFile(candidate!.key)));
          for (let i = 0; i < 2; i++) {
            const again = await run(baselineDir);
            expect(again.summary.shots.map((s) => [s.status, s.reason])).toEqual([['unchanged', undefined]]);
          }
        });
      } finally {
        await rm(baselineDir, { recursive: true, force: true });
      }
    }, 120_000);
  }
});
