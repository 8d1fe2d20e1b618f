/** The test engine: one runner per kind behind one interface, (test, target) -> summary + artifacts. */
export * from './types.ts';
