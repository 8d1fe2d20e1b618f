/**
 * One page on one cell: loaded, waited for until ready (lib/page-ready.ts, decision 0089), held still (captures
 * SETTLE_PAUSE_MS apart until two in a row are alike: the same pixels, or within the test's own tolerance, as a
 * baseline is judged), and compared with its baseline when the server gave one (decision 0080). A page whose wait
 * for ready reached its maximum is still shot; its shot's reason says so. A page that never holds still fails,
 * saying where it kept changing, instead of failing against its baseline by chance. Its masks, and how many elements
 * each painted over, are in the shot for the report.
 * Writes into the attempt's folder, under `visual/<key>[@<network>]/`: `current.png` always (the last capture of a
 * page that never settled), and for a changed shot `baseline.png` (the baseline as compared, so the report keeps it
 * when the baseline is later replaced) and `diff.png`.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type VisualImage, type VisualMask, type VisualRegion, type VisualShot, visualBaselineFile, visualBaselineKey, visualShare } from '@fullstop/contracts';
import { RunAbortedError } from '../../errors.ts';
import { errorMessage } from '../../lib/result.ts';
import { pngSize } from '../../reporters/shrink-image.ts';
import type { RunContext } from '../../types.ts';
import type { Cell } from '../browser/matrix.ts';
import { compareImages } from './compare.ts';
import type { VisualOptions } from './options.ts';
import { type Likeness, settle } from './settle.ts';
import type { CellShooter, ShotPage } from './shooter.ts';

export interface PageToShoot {
  /** What its baselines are kept by. */
  name: string;
  url: string;
  mask: string[];
}

/** The shot's folder in the attempt's: its key, and its network when shaped (a key shot on several networks). */
export function shotFolder(key: string, network: string): string {
  return path.posix.join('visual', network === 'none' ? key : `${key}@${network}`);
}

async function writeImage(ctx: RunContext, rel: string, png: Buffer): Promise<VisualImage> {
  const abs = path.join(ctx.runDir, rel);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, png);
  const size = pngSize(png);
  if (!size) throw new Error(`${rel} is not a PNG`);
  return { path: rel, sha256: createHash('sha256').update(png).digest('hex'), ...size };
}

/** The shot's baseline from the folder the server gave, or null when it has none. */
async function readBaseline(ctx: RunContext, key: string): Promise<Buffer | null> {
  if (!ctx.baselineDir) return null;
  try {
    return await readFile(path.join(ctx.baselineDir, visualBaselineFile(key)));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return null;
    throw error;
  }
}

const px = (s: { width: number; height: number }) => `${s.width} × ${s.height} px`;
const where = (r: VisualRegion) => `${r.width} × ${r.height} px at ${r.x}, ${r.y}`;

/** Regions that kept changing named in a reason; the shot's `region` holds them all. */
const REGIONS_NAMED = 3;

/** The smallest rectangle holding every region. */
function union(regions: readonly VisualRegion[]): VisualRegion | undefined {
  if (regions.length === 0) return undefined;
  const x = Math.min(...regions.map((r) => r.x));
  const y = Math.min(...regions.map((r) => r.y));
  const right = Math.max(...regions.map((r) => r.x + r.width));
  const bottom = Math.max(...regions.map((r) => r.y + r.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** The regions in words, each once, in the order they changed: "220 × 48 px at 96, 296 and 1280 × 20 px at 0, 0". */
function regionsText(regions: readonly VisualRegion[]): string {
  const named = [...new Set(regions.map(where))];
  const shown = named.slice(0, REGIONS_NAMED);
  const more = named.length > REGIONS_NAMED ? ` and ${named.length - REGIONS_NAMED} more` : '';
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}${more}` : `${shown[0] ?? ''}${more}`;
}

/** What names a shot of `page` on `cell`, whatever became of it. */
export function shotOf(test: string, cell: Cell, page: PageToShoot, tolerance: number) {
  return {
    key: visualBaselineKey({ test, page: page.name, engine: cell.engine, device: cell.device }),
    page: page.name,
    url: page.url,
    cell: cell.name,
    engine: cell.engine,
    device: cell.device,
    network: cell.network,
    tolerance,
    candidate: false,
  };
}

export async function shootPage(
  shooter: CellShooter,
  cell: Cell,
  page: PageToShoot,
  p: { test: string; options: VisualOptions; ctx: RunContext },
): Promise<VisualShot> {
  const { options, ctx } = p;
  const started = performance.now();
  const named = shotOf(p.test, cell, page, options.tolerance);
  const key = named.key;
  const dir = shotFolder(key, cell.network);
  let mask: VisualMask[] | undefined = page.mask.length ? page.mask.map((selector) => ({ selector })) : undefined;
  const base = () => ({ ...named, ...(mask ? { mask } : {}) });
  const elapsed = () => Math.round(performance.now() - started);
  let captures = 0;
  let opened: ShotPage;
  try {
    opened = await shooter.open(page.url, { mask: page.mask, fullPage: options.fullPage, timeoutMs: options.pageTimeoutMs, signal: ctx.signal });
  } catch (error) {
    if (ctx.signal.aborted) throw new RunAbortedError();
    return { ...base(), status: 'failed', reason: `the page did not load: ${errorMessage(error)}`, captures, durationMs: elapsed() };
  }
  try {
    const cut = opened.cutAtHeight ? { cutAtHeight: opened.cutAtHeight } : {};
    if (opened.status >= 400) return { ...base(), ...cut, status: 'failed', reason: `the page answered ${opened.status}`, captures, durationMs: elapsed() };
    if (ctx.signal.aborted) throw new RunAbortedError();
    // What the reader is told of a page shot when its wait for ready reached the maximum, after any other reason.
    const unready = opened.ready.ready ? null : `the page was not ready when shot (${opened.ready.reason ?? 'not ready'})`;
    const noted = (reason?: string) => {
      const said = [reason, unready].filter((x): x is string => !!x).join('; ');
      return said ? { reason: said } : {};
    };
    // Alike as a baseline is judged: no pixel changed beyond anti-aliasing, or no more than the tolerance allows.
    const likeness = (previous: Buffer, next: Buffer): Likeness => {
      const cmp = compareImages(previous, next, options.colorThreshold);
      return { alike: !cmp.sizeChanged && cmp.changedRatio <= options.tolerance, ...(cmp.region ? { region: cmp.region } : {}) };
    };
    const settled = await settle(opened.capture, likeness, options.maxCaptures, ctx.signal);
    captures = settled.captures;
    if (mask) {
      const counts = await opened.maskedElements().catch(() => null);
      if (counts) mask = page.mask.map((selector, i) => ({ selector, elements: counts[i] ?? 0 }));
    }
    const current = await writeImage(ctx, `${dir}/current.png`, settled.png);
    if (!settled.settled) {
      const seconds = (settled.durationMs / 1000).toFixed(1);
      const moving = settled.previous ? compareImages(settled.previous, settled.png, options.colorThreshold) : null;
      const diff = moving ? await writeImage(ctx, `${dir}/unsettled-diff.png`, moving.diffPng()) : null;
      const region = union(settled.changes);
      const within = region ? `; it kept changing within ${regionsText(settled.changes)}` : '';
      return {
        ...base(),
        ...cut,
        status: 'failed',
        ...noted(`the page never settled: ${captures} captures in ${seconds} s, no two in a row alike${within}. Mask what moves, or still it`),
        current,
        ...(diff ? { diff: diff.path } : {}),
        ...(region ? { region } : {}),
        captures,
        durationMs: elapsed(),
      };
    }
    const baselinePng = await readBaseline(ctx, key);
    if (!baselinePng) return { ...base(), ...cut, status: 'new', ...noted(), current, captures, durationMs: elapsed() };
    let cmp: ReturnType<typeof compareImages>;
    try {
      cmp = compareImages(baselinePng, settled.png, options.colorThreshold);
    } catch (error) {
      return { ...base(), ...cut, status: 'failed', reason: `the baseline could not be read as a PNG: ${errorMessage(error)}`, current, captures, durationMs: elapsed() };
    }
    const measured = { changedPixels: cmp.changedPixels, changedRatio: cmp.changedRatio, ...(cmp.region ? { region: cmp.region } : {}) };
    const baselineSha256 = createHash('sha256').update(baselinePng).digest('hex');
    if (!cmp.sizeChanged && cmp.changedRatio <= options.tolerance) {
      // The baseline is the server's: named by its hash, not copied.
      return { ...base(), ...cut, status: 'unchanged', ...noted(), current, baselineSha256, ...measured, captures, durationMs: elapsed() };
    }
    const baseline = await writeImage(ctx, `${dir}/baseline.png`, baselinePng);
    const diff = await writeImage(ctx, `${dir}/diff.png`, cmp.diffPng());
    const reason = cmp.sizeChanged
      ? `the page is ${px(cmp.current)} now, ${px(cmp.baseline)} in its baseline`
      : `${visualShare(cmp.changedRatio)} of pixels changed (${cmp.changedPixels.toLocaleString('en-US')}), more than the tolerance of ${visualShare(options.tolerance)}`;
    return { ...base(), ...cut, status: 'changed', ...noted(reason), current, baselineSha256, baseline, diff: diff.path, ...measured, captures, durationMs: elapsed() };
  } catch (error) {
    if (ctx.signal.aborted) throw new RunAbortedError();
    return { ...base(), status: 'failed', reason: errorMessage(error), captures, durationMs: elapsed() };
  } finally {
    await opened.close();
  }
}
