/**
 * How a load test's work is shared among its generators: generator `index` of `count` gets an even share of the
 * connections, of the requests (`amount`) and of every stage's target, the first ones one more when it does not
 * divide evenly; so the generators together open exactly what the manifest asks for.
 */
import { RunAbortedError } from '../../errors.ts';
import type { Stage } from './stages.ts';

/** Which generator this run is, and the wall-clock time (ms since the epoch) all of them start at. */
export interface LoadGenerator {
  index: number;
  count: number;
  startAtMs: number;
}

export function shareOf(total: number, index: number, count: number): number {
  return Math.floor(total / count) + (index < total % count ? 1 : 0);
}

export function stagesShare(stages: readonly Stage[], index: number, count: number): Stage[] {
  return stages.map((s) => ({ durationSeconds: s.durationSeconds, target: shareOf(s.target, index, count) }));
}

/** Resolves at `startAtMs` (at once when it has passed); rejects (RunAbortedError) when the signal aborts first. */
export function untilStart(startAtMs: number, signal: AbortSignal): Promise<void> {
  const wait = startAtMs - Date.now();
  if (signal.aborted) return Promise.reject(new RunAbortedError());
  if (wait <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RunAbortedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, wait);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
