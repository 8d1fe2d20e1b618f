import { type Runner, TEST_KINDS, type TestKind } from '../types.ts';

/**
 * Every runner, by kind, from each runner folder's `index.ts` (its `runner` export). A new kind is its folder and
 * its name in TEST_KINDS (types.ts): the folder holds `index.ts` (`export { fooRunner as runner }`), `options.ts`
 * and `facts.ts` (its `facts`, and its summary added to `KindSummaries`); kinds.ts, this registry and the runner
 * processes (sandbox/kind-runners.ts) find it by its name, and kinds.test.ts fails when a part is missing.
 */
export const runners = Object.fromEntries(
  await Promise.all(TEST_KINDS.map(async (kind) => [kind, ((await import(`./${kind}/index.ts`)) as { runner: Runner }).runner] as const)),
) as Record<TestKind, Runner>;

/** Runners by their old names, for code that imports one by name (the engine bench); a new kind needs none. */
export const {
  accessibility: accessibilityRunner,
  api: apiRunner,
  browser: browserRunner,
  lighthouse: lighthouseRunner,
  load: loadRunner,
  'mobile-static': mobileStaticRunner,
  'security-checks': securityChecksRunner,
  'security-scan': securityScanRunner,
} = runners;
