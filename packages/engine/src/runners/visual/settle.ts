import { setTimeout as sleep } from 'node:timers/promises';
import type { VisualRegion } from '@fullstop/contracts';

/**
 * The pause before each further capture, once the page is ready (lib/page-ready.ts): long enough that a page still
 * filling in (its data answered, its list not yet rendered) shows it between two captures; captures taken back to
 * back on a fast machine read the same half-drawn page twice. A page still changing after `maxCaptures` never holds still.
 */
export const SETTLE_PAUSE_MS = 300;

/** Two captures in a row, compared: alike (the same pixels, or within the test's tolerance), or where they differ. */
export interface Likeness {
  alike: boolean;
  /** Where the later differs from the earlier, when it does. */
  region?: VisualRegion;
}

export interface Settled {
  /** The last capture: the shot when it settled, the evidence when it did not. */
  png: Buffer;
  /** The capture before it, when the page never settled: what kept changing is between the two. */
  previous?: Buffer;
  settled: boolean;
  captures: number;
  /** Where each capture that was not alike its predecessor differed from it, in order (the regions that kept changing). */
  changes: VisualRegion[];
  durationMs: number;
}

/**
 * Captures, SETTLE_PAUSE_MS apart, until two in a row are alike by `compare`, at most `maxCaptures` times; `pauseMs`
 * for a test that needs another pause.
 */
export async function settle(
  capture: () => Promise<Buffer>,
  compare: (previous: Buffer, next: Buffer) => Likeness,
  maxCaptures: number,
  signal: AbortSignal,
  pauseMs = SETTLE_PAUSE_MS,
): Promise<Settled> {
  const started = performance.now();
  const changes: VisualRegion[] = [];
  let last = await capture();
  let captures = 1;
  const done = (settled: boolean, png: Buffer, previous?: Buffer): Settled => ({
    png,
    ...(previous ? { previous } : {}),
    settled,
    captures,
    changes,
    durationMs: performance.now() - started,
  });
  while (captures < maxCaptures) {
    await sleep(pauseMs, undefined, { signal });
    const next = await capture();
    captures++;
    const likeness = compare(last, next);
    if (likeness.alike) return done(true, next);
    if (likeness.region) changes.push(likeness.region);
    if (captures === maxCaptures) return done(false, next, last);
    last = next;
  }
  // maxCaptures below 2 (validation keeps it at 2 or more): one capture is not a settled page.
  return done(false, last);
}
