/** The test engine: one runner per kind behind one interface, (test, target) -> summary + artifacts. */
export * from './types.ts';
export * from './errors.ts';
export { createTargetGuard, type TargetGuard } from './policy/target-guard.ts';
export { isPrivateAddress } from './policy/private-address.ts';
export { CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH, GUARDED_CHROMIUM_FLAGS } from './lib/chromium.ts';
// Every runner's code (Lighthouse, Playwright...): a bundle that uses none of these names leaves it out, as long as
// what follows is exported from where it is defined rather than through this module.
export * from './runners/index.ts';
export { type KindValidator, KIND_SCHEMAS, validators } from './runners/validators.ts';
export { isRetried, kinds } from './runners/kinds.ts';
export { countByRisk, RISKS } from './lib/findings.ts';
export { type Alert, type AlertCounts, countAlerts, groupAlerts } from './lib/alerts.ts';
export { PASSIVE_RULE_IDS } from './runners/security-scan/passive-rules.ts';
export * from './runners/mobile-static/app-files.ts';
export { cloudCellsOf, cloudDevicesIn, type CloudHub, type CloudProvider, cloudSpecsRefusal } from './runners/browser/cloud-cells.ts';
export * from './suite/index.ts';
export * from './reporters/index.ts';
export { manualResult, wcagOf } from './runners/manual/result.ts';
export { manualInput, platformLabel, type ManualOptions, type ManualPlatform, MAX_MANUAL_STEPS } from './runners/manual/options.ts';
export { MANUAL_STEP_VERDICTS, type ManualEvidence, type ManualExecution, type ManualStepResult, type ManualStepVerdict, type ManualSummary } from './runners/manual/facts.ts';
