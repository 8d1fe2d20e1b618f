// Visual regression (issue 27, docs/decisions/0080): what a `visual` test's run says of each shot, and how a shot's
// baseline is named. The engine writes it, the server keeps baselines and candidates by it, the console and the
// portal show it: one shape and one key function for all of them.
import { z } from 'zod';

/**
 * What a shot is kept for: one page of one visual test on one engine and one device. The network is not part of
 * it: a page on a shaped network must look as it does on the unshaped one, so both compare with one baseline.
 */
export interface VisualShotIdentity {
  /** The test's name (unique per client). */
  test: string;
  /** The page as the test names it: its `name`, else the path or URL as written in its options. */
  page: string;
  engine: string;
  device: string;
}

const KEY_SLUG_MAX = 48;
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const U64 = 0xffffffffffffffffn;

/** FNV-1a, 64 bits, of the UTF-8 bytes, in 16 hex digits: plain JavaScript, so the browser makes the same key. */
function fnv1a64(s: string): string {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(s)) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & U64;
  return hash.toString(16).padStart(16, '0');
}

/** Lower-case letters and digits, other runs as one hyphen: readable in a file name, never a path. */
function slug(s: string, max: number): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, max)
    .replace(/^-+|-+$/g, '');
}

/**
 * A shot's baseline key: `<page>.<engine>-<device>.<hash>`, e.g. `pricing.firefox-phone.1f0c3a9d2b7e4c11`. The hash
 * is of all four parts as given, so two pages whose readable parts look alike still differ; the rest is for people
 * reading a folder. Safe as a file or object name anywhere (letters, digits, `-` and `.`).
 */
export function visualBaselineKey(shot: VisualShotIdentity): string {
  const page = slug(shot.page.replace(/^[a-z]+:\/\//i, ''), KEY_SLUG_MAX) || 'home';
  return `${page}.${slug(shot.engine, 20) || 'engine'}-${slug(shot.device, 20) || 'device'}.${fnv1a64(JSON.stringify([shot.test, shot.page, shot.engine, shot.device]))}`;
}

/** A baseline's key as it may appear in a request (an approval names the shot by it). */
export const visualBaselineKeyString = z.string().regex(/^[a-z0-9-]{1,48}\.[a-z0-9-]{1,41}\.[0-9a-f]{16}$/, { error: 'key is not a visual baseline key' });

/** The baseline's file in the folder the server gives the runner (RunContext.baselineDir). */
export function visualBaselineFile(key: string): string {
  return `${key}.png`;
}

/**
 * - `new`: no baseline yet; the shot passes and is a candidate for one.
 * - `unchanged`: within the tolerance of its baseline.
 * - `changed`: more pixels differ than the tolerance allows, or the size differs; a candidate an operator approves
 *   (it becomes the baseline of later runs) or rejects.
 * - `failed`: no shot could be compared: the page never settled, did not load, or a mask selector was refused.
 */
export const visualShotStatus = z.enum(['new', 'unchanged', 'changed', 'failed']);
export type VisualShotStatus = z.infer<typeof visualShotStatus>;

/** A rectangle of an image in its pixels, from its top left: where the changed pixels are. */
export const visualRegion = z.object({
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});
export type VisualRegion = z.infer<typeof visualRegion>;

/** A PNG of the attempt's folder: its path there, its SHA-256 (what an approval names), its size in pixels. */
export const visualImage = z.object({
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});
export type VisualImage = z.infer<typeof visualImage>;

/** A mask of a shot: a CSS selector whose elements' boxes are painted #FF00FF in every capture (baseline and diff alike). */
export const visualMask = z.object({
  selector: z.string(),
  /** How many elements it matched when the page was shot (0: it hid nothing); absent when the page was not shot. */
  elements: z.number().int().min(0).optional(),
});
export type VisualMask = z.infer<typeof visualMask>;

/** One page on one cell. */
export const visualShot = z.object({
  /** visualBaselineKey of the test, page, engine and device. */
  key: z.string(),
  /** The page as the test names it (untrusted: escape it wherever shown). */
  page: z.string(),
  /** The URL shot. */
  url: z.string(),
  /** `<engine>/<device>[/<network>]`, as the browser kind names its cells (cellLabel reads it). */
  cell: z.string(),
  engine: z.string(),
  device: z.string(),
  network: z.string(),
  status: visualShotStatus,
  /**
   * Whether `current` is this run's candidate for the key's baseline: a `new` or `changed` shot, the first of its
   * key in the run (a key shot on several networks has one candidate). Approving it makes it the baseline.
   */
  candidate: z.boolean(),
  /** Why it changed or failed, in words (untrusted parts included: escape it). */
  reason: z.string().optional(),
  /** The ratio of pixels that may differ (the test's `tolerance`). */
  tolerance: z.number().min(0).max(1),
  /** This run's shot (the last capture of a page that never settled). */
  current: visualImage.optional(),
  /** The SHA-256 of the baseline it was compared with (the server's file): which baseline an unchanged shot matched. */
  baselineSha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  /** That baseline, copied into the attempt's folder when the shot changed: the report keeps it when it is replaced. */
  baseline: visualImage.optional(),
  /** Baseline and current: unchanged pixels faded, changed ones red, anti-aliasing yellow, the region outlined. */
  diff: z.string().optional(),
  changedPixels: z.number().int().min(0).optional(),
  /** changedPixels over the pixels compared (the larger of the two sizes when they differ). */
  changedRatio: z.number().min(0).max(1).optional(),
  /** The smallest rectangle holding every changed pixel, in `current`'s pixels. */
  region: visualRegion.optional(),
  /** Captures taken until two in a row were alike (or the bound was reached). */
  captures: z.number().int().min(0),
  /** A full-page shot taller than the bound was cut at this height (CSS pixels). */
  cutAtHeight: z.number().int().optional(),
  /** The test's and the page's masks, in that order; absent when nothing was masked. */
  mask: z.array(visualMask).optional(),
  durationMs: z.number().min(0),
});
export type VisualShot = z.infer<typeof visualShot>;

/** A visual test's summary: the runner's result and the JSON report's `summary`. */
export const visualSummary = z.object({
  kind: z.literal('visual'),
  tolerance: z.number().min(0).max(1),
  shots: z.array(visualShot),
});
export type VisualSummary = z.infer<typeof visualSummary>;

/** What a run offers as baselines: each key's candidate shot and its image. */
export function visualCandidates(summary: Pick<VisualSummary, 'shots'>): (VisualShot & { current: VisualImage })[] {
  return summary.shots.filter((s): s is VisualShot & { current: VisualImage } => s.candidate && s.current !== undefined);
}

/** A share of pixels in words: "0.42%", "< 0.01%" for a few pixels, "0%" for none. */
export function visualShare(ratio: number): string {
  if (ratio <= 0) return '0%';
  const percent = ratio * 100;
  if (percent < 0.01) return '< 0.01%';
  return `${percent < 10 ? percent.toFixed(2) : percent.toFixed(1)}%`;
}
