/** The test engine: one runner per kind behind one interface, (test, target) -> summary + artifacts. */
export * from './types.ts';
export * from './errors.ts';
export { createTargetGuard, type TargetGuard } from './policy/target-guard.ts';
export { isPrivateAddress } from './policy/private-address.ts';
export { CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH, GUARDED_CHROMIUM_FLAGS } from './lib/chromium.ts';
export * from './runners/index.ts';
export * from './runners/mobile-static/app-files.ts';
export * from './suite/index.ts';
export * from './reporters/index.ts';
