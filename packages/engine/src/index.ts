/** The test engine: one runner per kind behind one interface, (test, target) -> summary + artifacts. */
export * from './types.ts';
export * from './runners/index.ts';
export * from './suite/index.ts';
export * from './reporters/index.ts';
