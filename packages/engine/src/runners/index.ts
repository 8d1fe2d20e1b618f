import type { Runner, TestKind } from '../types.ts';

/** Every runner, by kind. Filled in as each runner lands. */
export const runners: Partial<Record<TestKind, Runner>> = {};
