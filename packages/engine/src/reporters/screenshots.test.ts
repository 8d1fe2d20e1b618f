import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseResult } from '../types.ts';
import { renderReportHtml } from './html/render-report.ts';
import { sampleReport } from './sample-report.ts';
import { collectImages } from './screenshots.ts';

let runDir = '';
beforeAll(async () => {
  runDir = await mkdtemp(path.join(os.tmpdir(), 'report-screenshots-'));
});
afterAll(() => rm(runDir, { recursive: true, force: true }));

/** A phone-sized screenshot of one colour, written into the run's folder. */
async function shot(rel: string, red: number): Promise<string> {
  const png = await sharp({ create: { width: 412, height: 915, channels: 3, background: { r: red, g: 80, b: 120 } } }).png().toBuffer();
  await mkdir(path.dirname(path.join(runDir, rel)), { recursive: true });
  await writeFile(path.join(runDir, rel), png);
  return rel;
}

const step = (name: string, status: CaseResult['status'], screenshot: string): CaseResult => ({ name, status, durationMs: 900, screenshot, ...(status === 'failed' ? { error: 'not found' } : {}) });

describe('screenshots in the html report', () => {
  it("inlines a mobile UI test's screenshot after every step, passing ones too, the failure's first", async () => {
    const cases = [
      step('Sign in › shows the welcome text', 'passed', await shot('mobile-ui/device-1/001.png', 10)),
      step('Sign in › types an email', 'passed', await shot('mobile-ui/device-1/002.png', 60)),
      step('Checkout › pays', 'failed', await shot('mobile-ui/device-1/003.png', 200)),
    ];
    const r = sampleReport({
      kind: 'mobile-ui',
      status: 'failed',
      totals: { totalTests: 3, passedTests: 2, failedTests: 1, skippedTests: 0 },
      summary: { kind: 'mobile-ui', cases, devices: [], pageSources: [] },
      artifacts: cases.map((c) => ({ path: c.screenshot!, kind: 'screenshot' as const, contentType: 'image/png', label: c.name })),
    });
    const images = await collectImages(r, runDir);
    expect([...images.keys()]).toEqual(['mobile-ui/device-1/003.png', 'mobile-ui/device-1/001.png', 'mobile-ui/device-1/002.png']);
    for (const uri of images.values()) expect(uri).toMatch(/^data:image\/jpeg;base64,/);
    const html = renderReportHtml(r, { image: (p) => images.get(p) });
    expect(html).toContain('<h2>Screenshots after each step (2)</h2>');
    expect(html).not.toContain(': in the zip report, <code>');
    expect(html.match(/<img class="shot" src="data:image\/jpeg;base64,/g)?.length).toBe(3);
  });

  it("leaves a passed case's screenshot unread where the kind's report does not show it", async () => {
    const cases = [step('home loads', 'passed', await shot('browser/pages/1-home.png', 30))];
    const r = sampleReport({ kind: 'browser', summary: { kind: 'browser', cases }, artifacts: [{ path: cases[0]!.screenshot!, kind: 'screenshot', contentType: 'image/png', label: 'home' }] });
    expect([...(await collectImages(r, runDir)).keys()]).toEqual([]);
  });
});
