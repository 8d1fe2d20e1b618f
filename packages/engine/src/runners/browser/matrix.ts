/**
 * The engines, devices and networks a browser test runs on (decision 0078): each combination is a cell, one
 * Playwright project named `<engine>/<device>` (`<engine>/<device>/<network>` when the test names a network). Names
 * only here: the Playwright process and the reports read them without loading Playwright (the device descriptors
 * are in devices.ts, the network shapes in policy/network-profiles.ts).
 */
import type { Network } from '../../policy/network-profiles.ts';

export { NETWORKS, type Network } from '../../policy/network-profiles.ts';

export const BROWSER_ENGINES = ['chromium', 'firefox', 'webkit'] as const;
export type BrowserEngine = (typeof BROWSER_ENGINES)[number];

/**
 * The engines Playwright drives, which run a test's spec files. WebKit (WebKitGTK over classic WebDriver, decision
 * 0079) runs a test's page checks only: every engine runs those.
 */
export const SPEC_ENGINES = ['chromium', 'firefox'] as const satisfies readonly BrowserEngine[];
export type SpecEngine = (typeof SPEC_ENGINES)[number];
export const runsSpecs = (engine: BrowserEngine): engine is SpecEngine => (SPEC_ENGINES as readonly string[]).includes(engine);

export const DEVICES = ['desktop', 'phone', 'tablet'] as const;
export type Device = (typeof DEVICES)[number];

/** How many cells one test may have: each is a whole run of its specs. */
export const MAX_CELLS_PER_TEST = 12;

export interface Cell {
  engine: BrowserEngine;
  device: Device;
  network: Network;
  /** `<engine>/<device>` or `<engine>/<device>/<network>`: the Playwright project's name, and how reports and JUnit name the cell. */
  name: string;
}

/**
 * Every engine × device × network, engines first (the order of the report's columns). A test on the unshaped
 * network only keeps its cells' names of before networks existed: `<engine>/<device>`.
 */
export function cellsOf(engines: readonly BrowserEngine[], devices: readonly Device[], networks: readonly Network[] = ['none']): Cell[] {
  const named = !(networks.length === 1 && networks[0] === 'none');
  return engines.flatMap((engine) =>
    devices.flatMap((device) => networks.map((network) => ({ engine, device, network, name: named ? `${engine}/${device}/${network}` : `${engine}/${device}` }))),
  );
}

/**
 * Whether a test runs as every test did before engines and devices existed: Chromium on the desktop only. Such a
 * test keeps its one project named `chromium` and its cases keep their names, so its reports and history read
 * exactly as before.
 */
export function isClassic(cells: readonly Cell[]): boolean {
  return cells.length === 1 && cells[0]!.engine === 'chromium' && cells[0]!.device === 'desktop' && cells[0]!.network === 'none';
}

/** The engines a test's raw manifest options name (the default when they name none or are not valid yet). */
export function enginesIn(options: Readonly<Record<string, unknown>>): BrowserEngine[] {
  const raw = options.engines;
  if (!Array.isArray(raw)) return ['chromium'];
  return BROWSER_ENGINES.filter((engine) => raw.includes(engine));
}
