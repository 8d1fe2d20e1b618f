import { type Runner, TEST_KINDS, type TestKind } from '../types.ts';

/**
 * Every runner, by kind, from each runner folder's `index.ts` (its `runner` export). A new kind is its folder and
 * its name in TEST_KINDS (types.ts): the folder holds `index.ts` (`export { fooRunner as runner }`), `options.ts`,
 * `facts.ts` (its `facts`: limits, title and label, and its summary added to `KindSummaries`), `report.ts` (its
 * `report`: verdict, key figure and report sections) and `sample.ts` (its sample report). kinds.ts, reports.ts,
 * this registry, the samples (reporters/fixtures.ts) and the runner processes (sandbox/kind-runners.ts) find it by
 * its name; kinds.test.ts and reports.test.ts fail when a part is missing (docs/decisions/0073).
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
