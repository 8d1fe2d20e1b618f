import { type Runner, TEST_KINDS, type TestKind } from '../types.ts';

/**
 * Each kind's runner, imported on its own from its folder (`runners/<kind>/index.ts`, its `runner` export): the
 * runner process loads what its test needs and nothing else (the whole engine takes ~1.5 s to load here, one kind
 * 0.15-0.6 s). The import path is built from TEST_KINDS only; a kind the request names that is not there finds no
 * entry.
 */
export const KIND_RUNNERS = Object.fromEntries(
  TEST_KINDS.map((kind) => [kind, async () => ((await import(`../runners/${kind}/index.ts`)) as { runner: Runner }).runner] as const),
) as Record<TestKind, () => Promise<Runner>>;
