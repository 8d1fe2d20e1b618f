/**
 * The engines and devices a browser test runs on (decision 0078): each pair is a cell, one Playwright project
 * named `<engine>/<device>`. Names only here: the Playwright process and the reports read them without loading
 * Playwright (the device descriptors are in devices.ts).
 */

export const BROWSER_ENGINES = ['chromium', 'firefox'] as const;
export type BrowserEngine = (typeof BROWSER_ENGINES)[number];

export const DEVICES = ['desktop', 'phone', 'tablet'] as const;
export type Device = (typeof DEVICES)[number];

/** How many cells one test may have: each is a whole run of its specs. */
export const MAX_CELLS_PER_TEST = 12;

export const ENGINE_TITLES: Readonly<Record<BrowserEngine, string>> = { chromium: 'Chromium', firefox: 'Firefox' };

export interface Cell {
  engine: BrowserEngine;
  device: Device;
  /** `<engine>/<device>`: the Playwright project's name, and how reports and JUnit name the cell. */
  name: string;
}

/** Every engine × device, engines first (the order of the report's columns). */
export function cellsOf(engines: readonly BrowserEngine[], devices: readonly Device[]): Cell[] {
  return engines.flatMap((engine) => devices.map((device) => ({ engine, device, name: `${engine}/${device}` })));
}

/**
 * Whether a test runs as every test did before engines and devices existed: Chromium on the desktop only. Such a
 * test keeps its one project named `chromium` and its cases keep their names, so its reports and history read
 * exactly as before.
 */
export function isClassic(cells: readonly Cell[]): boolean {
  return cells.length === 1 && cells[0]!.engine === 'chromium' && cells[0]!.device === 'desktop';
}

/** The engines a test's raw manifest options name (the default when they name none or are not valid yet). */
export function enginesIn(options: Readonly<Record<string, unknown>>): BrowserEngine[] {
  const raw = options.engines;
  if (!Array.isArray(raw)) return ['chromium'];
  return BROWSER_ENGINES.filter((engine) => raw.includes(engine));
}
