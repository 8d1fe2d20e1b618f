import { setTimeout as sleep } from 'node:timers/promises';
import { samePixels } from './compare.ts';

/**
 * The pause before each further capture: short first (most pages are still at once), longer after (a late image,
 * a font, a layout that moves once). A page still changing after the last is one that never settles.
 */
export const SETTLE_PAUSES_MS = [0, 150, 300, 600, 1000] as const;
const pauseBefore = (capture: number) => SETTLE_PAUSES_MS[Math.min(capture - 1, SETTLE_PAUSES_MS.length - 1)]!;

export interface Settled {
  /** The last capture: the shot when it settled, the evidence when it did not. */
  png: Buffer;
  /** The capture before it, when the page never settled: what kept changing is between the two. */
  previous?: Buffer;
  settled: boolean;
  captures: number;
  durationMs: number;
}

/** Captures until two in a row show the same pixels, at most `maxCaptures` times. */
export async function settle(capture: () => Promise<Buffer>, maxCaptures: number, signal: AbortSignal): Promise<Settled> {
  const started = performance.now();
  let last = await capture();
  let captures = 1;
  while (captures < maxCaptures) {
    await sleep(pauseBefore(captures), undefined, { signal });
    const next = await capture();
    captures++;
    if (samePixels(next, last)) return { png: next, settled: true, captures, durationMs: performance.now() - started };
    if (captures === maxCaptures) return { png: next, previous: last, settled: false, captures, durationMs: performance.now() - started };
    last = next;
  }
  // maxCaptures below 2 (validation keeps it at 2 or more): one capture is not a settled page.
  return { png: last, settled: false, captures, durationMs: performance.now() - started };
}
