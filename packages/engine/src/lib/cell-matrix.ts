/**
 * The matrix options (engines × devices × networks, decision 0078) that more than one kind takes: the browser kind,
 * the accessibility kind, and a suite group that sets them for its tests. The names of the engines, devices and
 * networks and the cells they make are the browser kind's (runners/browser/matrix.ts); the validation pieces are
 * here, so every kind and a group say the same thing about the same mistake.
 */
import { z } from 'zod';
import { BROWSER_ENGINES, type BrowserEngine, cellsOf, type Device, DEVICES, MAX_CELLS_PER_TEST, type Network, NETWORKS } from '../runners/browser/matrix.ts';

/** The matrix's three axes, as the manifest names them. */
export const MATRIX_AXES = ['engines', 'devices', 'networks'] as const;
export type MatrixAxis = (typeof MATRIX_AXES)[number];

/**
 * The kinds whose tests take the matrix, and so a group's matrix: a group's `engines` leave its load or API tests
 * as they are. A kind is added here when its options take the axes (`matrixOptions`) and its runner runs each cell.
 */
export const MATRIX_KINDS: readonly string[] = ['browser', 'accessibility', 'visual', 'payment'];

/**
 * A non-empty list of distinct names from `names`: an unknown one is named with the ones there are. `elsewhere`
 * says why a name known to another kind cannot run here (an engine a kind does not run on yet).
 */
export function uniqueList<T extends readonly [string, ...string[]]>(names: T, noun: string, elsewhere?: (input: unknown) => string | null) {
  return z
    .array(z.enum(names, { error: (issue) => elsewhere?.(issue.input) ?? `unknown ${noun} ${JSON.stringify(issue.input)}: the ${noun}s are ${names.join(', ')}` }))
    .min(1, { error: `list at least one ${noun}` })
    .refine((list) => new Set(list).size === list.length, { error: `lists the same ${noun} twice` });
}

/**
 * The matrix fields of a kind's options, on the engines that kind runs (every browser engine unless it says). An
 * engine the browser kind knows but this kind does not run is refused with `elsewhere`'s words.
 */
export function matrixOptions(engines: readonly [BrowserEngine, ...BrowserEngine[]], elsewhere?: (engine: string) => string) {
  const notHere = (input: unknown) => (elsewhere && typeof input === 'string' && (BROWSER_ENGINES as readonly string[]).includes(input) ? elsewhere(input) : null);
  return {
    /** The browser engines every page or spec runs on (decision 0078). */
    engines: uniqueList(engines, 'engine', notHere).default(['chromium']),
    /** The device profiles, on each engine (a cloud device is the browser kind's: runners/browser/cloud-cells.ts). */
    devices: uniqueList(DEVICES, 'device', (input) =>
      input && typeof input === 'object' && 'cloud' in input ? 'a cloud device ({ cloud, browser }) runs in browser tests only, as page checks: list desktop, phone or tablet here' : null,
    ).default(['desktop']),
    /** The networks, shaped in the policy proxy; `none` is the unshaped local network. */
    networks: uniqueList(NETWORKS, 'network').default(['none']),
  };
}

/** A group's matrix in the manifest: each axis optional, names checked against every engine the browser kind knows. */
export const groupMatrix = {
  engines: uniqueList(BROWSER_ENGINES, 'engine').optional(),
  devices: uniqueList(DEVICES, 'device').optional(),
  networks: uniqueList(NETWORKS, 'network').optional(),
};

/** "2 engines × 3 devices × 3 networks make 18 cells; …" when the lists make more cells than a test may have, else null. */
export function cellBoundProblem(m: { engines: readonly unknown[]; devices: readonly unknown[]; networks: readonly unknown[] }): string | null {
  const cells = m.engines.length * m.devices.length * m.networks.length;
  if (cells <= MAX_CELLS_PER_TEST) return null;
  const product = `${m.engines.length} engines × ${m.devices.length} devices × ${m.networks.length} networks`;
  return `${product} make ${cells} cells; a test may have at most ${MAX_CELLS_PER_TEST}: split it in two tests`;
}

/** The bound as a zod refinement over a kind's parsed options (the issue sits on `options.networks`, as the browser kind's). */
export function checkCellBound(options: { engines: readonly BrowserEngine[]; devices: readonly Device[]; networks: readonly Network[] }, ctx: z.RefinementCtx): void {
  const problem = cellBoundProblem(options);
  if (problem) ctx.addIssue({ code: 'custom', path: ['options', 'networks'], message: problem });
}

export { cellsOf };
