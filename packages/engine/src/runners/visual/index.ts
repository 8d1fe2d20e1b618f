import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { cellLabel, type VisualShot } from '@fullstop/contracts';
import { RunAbortedError } from '../../errors.ts';
import { defineRunner } from '../../lib/define-runner.ts';
import { errorMessage } from '../../lib/result.ts';
import type { Artifact } from '../../types.ts';
import { type Cell, cellsOf } from '../browser/matrix.ts';
import { facts } from './facts.ts';
import { pageOf, visualInput } from './options.ts';
import { type PageToShoot, shootPage, shotOf } from './shoot-page.ts';
import { type CellShooter, openShooter } from './shooter.ts';

/** A key's candidate is its first new or changed shot: a key shot on several networks offers one. */
function markCandidates(shots: VisualShot[]): void {
  const offered = new Set<string>();
  for (const shot of shots) {
    if ((shot.status !== 'new' && shot.status !== 'changed') || !shot.current || offered.has(shot.key)) continue;
    shot.candidate = true;
    offered.add(shot.key);
  }
}

const where = (s: VisualShot) => `${s.page} on ${cellLabel(s.cell)}`;

/**
 * The images a reader looks at, in the order the report inlines them (its budget keeps the first): each changed
 * shot's baseline, current and diff, then what a page that never settled showed, then the new shots. An unchanged
 * shot's image stays in the attempt's folder (and the zip) unlisted.
 */
function artifactsOf(shots: readonly VisualShot[]): Artifact[] {
  const image = (p: string, label: string): Artifact => ({ path: p, kind: 'screenshot', contentType: 'image/png', label });
  const out: Artifact[] = [];
  for (const s of shots.filter((x) => x.status === 'changed')) {
    if (s.baseline) out.push(image(s.baseline.path, `Baseline of ${where(s)}`));
    if (s.current) out.push(image(s.current.path, `Current shot of ${where(s)}`));
    if (s.diff) out.push(image(s.diff, `Changes on ${where(s)}`));
  }
  for (const s of shots.filter((x) => x.status === 'failed')) {
    if (s.current) out.push(image(s.current.path, `Last capture of ${where(s)}`));
    if (s.diff) out.push(image(s.diff, `What kept changing on ${where(s)}`));
  }
  for (const s of shots.filter((x) => x.status === 'new')) if (s.current) out.push(image(s.current.path, `New shot of ${where(s)}`));
  return out;
}

/** Every page of a cell that could not be shot because its browser did not start. */
function browserFailed(test: string, cell: Cell, pages: readonly PageToShoot[], tolerance: number, error: unknown): VisualShot[] {
  return pages.map((page) => ({
    ...shotOf(test, cell, page, tolerance),
    status: 'failed' as const,
    reason: `the browser did not start: ${errorMessage(error)}`,
    captures: 0,
    durationMs: 0,
  }));
}

/**
 * Each listed page on each cell (engine × device × network, decision 0078), one browser per cell, cells and pages one
 * after another: stilled, masked, shot once two captures in a row are alike, and compared with its baseline from
 * `ctx.baselineDir` (decision 0080). A shot without a baseline is new and passes; one whose changed pixels exceed the
 * tolerance, or whose size changed, fails; so does a page that never settles.
 */
export const visualRunner = defineRunner({
  facts,
  schema: visualInput,
  async execute({ options }, { test, ctx, guard }) {
    const pages: PageToShoot[] = [];
    for (const entry of options.pages) {
      const page = pageOf(entry, options.mask);
      pages.push({ name: page.name, mask: page.mask, url: (await guard.check(page.path)).href });
    }
    const cells = cellsOf(options.engines, options.devices, options.networks);
    // Firefox writes below HOME, which a runner user may not have: one of the run's own, removed after (decision 0078).
    const home = options.engines.includes('firefox') ? path.join(ctx.runDir, 'visual-home') : undefined;
    if (home) await mkdir(home, { recursive: true });
    const shots: VisualShot[] = [];
    const total = cells.length * pages.length;
    let started = 0;
    let firstError: unknown = null;
    try {
      for (const cell of cells) {
        let shooter: CellShooter;
        try {
          shooter = await openShooter(cell, guard, ctx, home);
          started++;
        } catch (error) {
          if (ctx.signal.aborted) throw new RunAbortedError();
          // One cell's browser that would not start fails that cell's shots; the other cells still run.
          firstError ??= error;
          shots.push(...browserFailed(test.name, cell, pages, options.tolerance, error));
          continue;
        }
        try {
          for (const page of pages) {
            shots.push(await shootPage(shooter, cell, page, { test: test.name, options, ctx }));
            ctx.progress?.({ done: shots.length, total, message: `${page.name} on ${cellLabel(cell.name)}` });
          }
        } finally {
          await shooter.close();
        }
      }
    } finally {
      if (home) await rm(home, { recursive: true, force: true });
    }
    // No browser started at all: the run could not run (and may on another attempt), it did not fail.
    if (started === 0 && firstError) throw firstError;
    markCandidates(shots);
    const failed = shots.filter((s) => s.status === 'changed' || s.status === 'failed').length;
    return {
      status: failed > 0 ? 'failed' : 'passed',
      totals: { totalTests: shots.length, passedTests: shots.length - failed, failedTests: failed, skippedTests: 0 },
      summary: { kind: 'visual', tolerance: options.tolerance, shots },
      artifacts: artifactsOf(shots),
    };
  },
});

/** The name the registry and the runner processes load a kind's runner by. */
export { visualRunner as runner };
