/**
 * What a test's matrix adds to its kind's weight (docs/decisions/0069, 0078): the kind's `weight` is one cell's,
 * Chromium on the desktop, unshaped, as every test ran before the matrix. Each further cell adds its engine's cell
 * weight: its browser starts again for it (per Playwright worker and cell), and the whole test lasts that much
 * longer within the same `maxDurationSeconds`, so it must not be starved by the tests beside it. Firefox's start
 * costs about 4.5 × Chromium's CPU (bench/engine/README.md, "Firefox against Chromium"), so its cell weighs more.
 * The queue bounds the sum by the machine's capacity: a test heavier than the machine runs alone.
 */

import type { Network } from '../policy/network-profiles.ts';

/** Cores a cell of each engine adds; an engine not listed here (a new one) weighs as the heaviest listed. */
// WebKit's page-check attempt costs about Chromium's CPU (1.1 ×; its start 1.6 ×) and waits the rest
// (bench/engine/README.md, "WebKit"): its cell weighs a little more than Chromium's.
export const CELL_WEIGHTS: Readonly<Record<string, number>> = { chromium: 0.25, firefox: 0.75, webkit: 0.35 };

const HEAVIEST = Math.max(...Object.values(CELL_WEIGHTS));
const cellWeight = (engine: string) => CELL_WEIGHTS[engine] ?? HEAVIEST;
const lengthOf = (list: unknown) => (Array.isArray(list) && list.length > 0 ? list.length : 1);

/**
 * Whether a test's cells run strictly one after another, one browser at a time: accessibility, visual and payment tests
 * always, a browser test that has page checks and no spec files (decision 0086). Only spec files run cells side by
 * side (Playwright's workers). Without the kind, the answer is no: the weight of every cell is counted.
 */
export function cellsRunOneAtATime(options: Readonly<Record<string, unknown>> | null | undefined, kind?: string): boolean {
  // A payment test pays in each cell in turn, one browser at a time (decision 0097).
  if (kind === 'accessibility' || kind === 'visual' || kind === 'payment') return true;
  return kind === 'browser' && options?.pages !== undefined && options?.specs === undefined;
}

/**
 * The weight a test's raw manifest options add to its kind's: 0 for a test on one Chromium cell (its weight stays
 * what it was), more for each further cell, more for a Firefox cell than a Chromium one. Any kind's options may be
 * given: a kind without the matrix has none of its fields. A test whose cells run one at a time (`kind` given,
 * `cellsRunOneAtATime`) adds nothing: it keeps one browser's cores busy, for longer, within its own time limit; the
 * demo's page checks on Chromium, Firefox and WebKit kept 1.09 cores busy alone (decision 0086).
 */
export function cellWeightOf(options: Readonly<Record<string, unknown>> | null | undefined, kind?: string): number {
  if (cellsRunOneAtATime(options, kind)) return 0;
  const raw = options?.engines;
  const engines = Array.isArray(raw) && raw.length > 0 ? raw.filter((e): e is string => typeof e === 'string') : ['chromium'];
  // A cloud device (decision 0100) is no local browser: a session on the provider's machine, waited on here.
  const devices = Array.isArray(options?.devices) ? options.devices.filter((d) => typeof d === 'string') : undefined;
  const perEngine = (devices && devices.length === 0 ? 0 : lengthOf(devices)) * lengthOf(options?.networks);
  const cells = engines.reduce((sum, engine) => sum + cellWeight(engine) * perEngine, 0);
  return Math.max(0, cells - cellWeight('chromium'));
}

/**
 * What a cell keeps busy of a core while its pages are checked, by its network (issue 40): a shaped slow network
 * keeps the browser waiting on the proxy most of the cell's time (slow 3G: 400 ms a round trip, 400 kbit/s), so
 * several such cells run together on the core a one-at-a-time test weighs; an unshaped cell keeps it busy alone.
 * Offline cells end on their first network error.
 */
/** The cores a test's page checks keep busy at most: what a test whose cells run one at a time weighs (its kind's weight). */
export const PAGE_CHECK_CORES = 1;

const CELL_BUSY: Readonly<Record<Network, number>> = { none: 1, cable: 1, '4g': 0.5, 'fast-3g': 0.5, 'slow-3g': 0.25, offline: 0.25 };
export const cellBusy = (network: Network) => CELL_BUSY[network];

/**
 * Playwright workers for a test's spec cells on `cores` cores (issue 40): as many cells at once as their shares of a
 * core (`cellBusy`) fit in them, and never fewer workers than cores, nor more than cells. Playwright's workers are one
 * number for its whole run, so the busiest cell sets it for all: 4G cells run two to a core, slow-3G cells four, an
 * unshaped cell alone, as before. Each cell (a project) keeps at most `cores` of them, as it had before.
 */
export function specWorkersWithin(cores: number, networks: readonly Network[]): number {
  const busiest = Math.max(...networks.map(cellBusy));
  return Math.max(cores, Math.min(networks.length, Math.floor(cores / busiest)));
}

/**
 * Runs `work` on each item, as many at once as their `share`s fit in `budget`: a weighted pool. Whenever there is room,
 * the first item not started yet that fits starts (a light one may pass a heavy one that waits for room); an item
 * heavier than the budget runs alone. After an item's work throws, no further item starts; the pool waits for those
 * running and throws the first error.
 */
export async function runWithin<T>(items: readonly T[], share: (item: T) => number, budget: number, work: (item: T) => Promise<void>): Promise<void> {
  let used = 0;
  let failure: { error: unknown } | null = null;
  const waiting = [...items];
  const running = new Set<Promise<void>>();
  const nextThatFits = () => {
    if (failure !== null || waiting.length === 0) return -1;
    if (running.size === 0) return 0;
    return waiting.findIndex((item) => used + share(item) <= budget + 1e-9);
  };
  for (;;) {
    for (let i = nextThatFits(); i >= 0; i = nextThatFits()) {
      const [item] = waiting.splice(i, 1) as [T];
      const weight = share(item);
      used += weight;
      const done: Promise<void> = work(item)
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => {
          used -= weight;
          running.delete(done);
        });
      running.add(done);
    }
    if (running.size === 0) break;
    await Promise.race(running);
  }
  if (failure) throw (failure as { error: unknown }).error;
}
