/**
 * The parts of Playwright's client (playwright-core 1.56) the healing hook reaches beyond its public API, in one
 * place: the Locator class (not exported by the package), a locator's frame and selector, a frame's internal calls
 * (no step, no trace entry of their own), its action timeout, and a test's deadline. Each is checked when the hook
 * installs; one that is missing turns healing off for the process (said once on stderr), never a test's failure.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';

export interface InternalFrame {
  _wrapApiCall<T>(fn: () => Promise<T>, options: { internal: boolean }): Promise<T>;
  _timeout(options?: { timeout?: number }): number;
  evaluate(fn: unknown, arg: unknown): Promise<unknown>;
  $$eval(selector: string, fn: unknown, arg: unknown): Promise<unknown>;
  textContent(selector: string, options: { strict: boolean; timeout: number }): Promise<string | null>;
  page(): Page;
  parentFrame(): InternalFrame | null;
  getByTestId(testId: string): InternalLocator;
  getByRole(role: string, options: { name: string; exact: boolean }): InternalLocator;
  getByLabel(text: string, options: { exact: boolean }): InternalLocator;
  getByText(text: string, options: { exact: boolean }): InternalLocator;
  locator(selector: string, options?: { hasNot?: InternalLocator }): InternalLocator;
}

export interface InternalLocator {
  _frame: InternalFrame;
  _selector: string;
  toString(): string;
  count(): Promise<number>;
  locator(selector: string): InternalLocator;
  or(other: InternalLocator): InternalLocator;
  textContent(options: { timeout: number }): Promise<string | null>;
  boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null>;
}

export type LocatorMethod = (this: InternalLocator, ...args: unknown[]) => Promise<unknown>;

interface Internals {
  locatorPrototype: Record<string, unknown>;
  monotonicTime: () => number;
  setBoxedStackPrefixes: (prefixes: string[]) => void;
  playwrightDir: string;
}

/** Playwright's own modules, as the worker loaded them (one copy of each: the same files, the same instances). */
export function playwrightInternals(): Internals {
  const fromTest = createRequire(createRequire(import.meta.url).resolve('@playwright/test/package.json'));
  const playwrightPackage = fromTest.resolve('playwright/package.json');
  const fromPlaywright = createRequire(playwrightPackage);
  const coreDir = path.dirname(fromPlaywright.resolve('playwright-core/package.json'));
  const { Locator } = fromPlaywright(path.join(coreDir, 'lib/client/locator.js')) as { Locator?: { prototype: Record<string, unknown> } };
  const utils = fromPlaywright('playwright-core/lib/utils') as Partial<Pick<Internals, 'monotonicTime' | 'setBoxedStackPrefixes'>>;
  if (!Locator || typeof Locator.prototype.click !== 'function' || typeof Locator.prototype._expect !== 'function') throw new Error('Playwright’s Locator is not where it was');
  if (typeof utils.monotonicTime !== 'function' || typeof utils.setBoxedStackPrefixes !== 'function') throw new Error('Playwright’s utils are not what they were');
  return { locatorPrototype: Locator.prototype, monotonicTime: utils.monotonicTime, setBoxedStackPrefixes: utils.setBoxedStackPrefixes, playwrightDir: path.dirname(playwrightPackage) };
}

/**
 * Tells Playwright's module loader in this process (its ESM loader's thread too) to leave `files` to Node, as the
 * config's `build.external` does. Needed before the hook's own imports: the config, and the hook it imports, is
 * loaded before Playwright reads the config's `build.external`; it then sets the config's list, which names the same.
 */
export async function leaveToNode(files: string[]): Promise<void> {
  const fromTest = createRequire(createRequire(import.meta.url).resolve('@playwright/test/package.json'));
  const playwrightDir = path.dirname(fromTest.resolve('playwright/package.json'));
  const transform = fromTest(path.join(playwrightDir, 'lib/transform/transform.js')) as {
    setTransformConfig?: (config: { babelPlugins: unknown[]; external: string[] }) => void;
    transformConfig?: () => { babelPlugins: unknown[]; external: string[] };
  };
  const loaderHost = fromTest(path.join(playwrightDir, 'lib/common/esmLoaderHost.js')) as { configureESMLoaderTransformConfig?: () => Promise<void> };
  if (typeof transform.setTransformConfig !== 'function' || typeof transform.transformConfig !== 'function' || typeof loaderHost.configureESMLoaderTransformConfig !== 'function') return;
  const now = transform.transformConfig();
  transform.setTransformConfig({ ...now, external: [...now.external, ...files] });
  await loaderHost.configureESMLoaderTransformConfig();
}

/** A call that is no step of the test: it shows in no report and no trace (Playwright's own `internal` zone). */
export function internal<T>(frame: InternalFrame, fn: () => Promise<T>): Promise<T> {
  return frame._wrapApiCall(fn, { internal: true });
}

/** Milliseconds left before the test's own timeout, on Playwright's clock; null when it has none. */
export function testTimeLeft(info: TestInfo, now: () => number): number | null {
  const manager = (info as unknown as { _timeoutManager?: { currentSlotDeadline?: () => number } })._timeoutManager;
  const deadline = manager?.currentSlotDeadline?.();
  // Playwright's "no deadline" is 2^31 - 1 ms.
  if (typeof deadline !== 'number' || !Number.isFinite(deadline) || deadline >= 2_147_483_647) return null;
  return deadline - now();
}

/** Fails the test with `error` and lets it go on (what `expect.soft` does). */
export function failSoftly(info: TestInfo, error: Error): boolean {
  const fail = (info as unknown as { _failWithError?: (e: Error) => void })._failWithError;
  if (typeof fail !== 'function') return false;
  fail.call(info, error);
  return true;
}
