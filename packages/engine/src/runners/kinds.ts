import { cellWeightOf } from '../lib/cell-weight.ts';
import { RUN_ERROR_CODES } from '../lib/kind-facts.ts';
import { type KindFacts, TEST_KINDS, type TestKind } from '../types.ts';

/**
 * Every kind's facts, by kind, from each runner folder's `facts.ts` (its `facts` export): a kind named in
 * TEST_KINDS is found by its folder, nothing here lists it. Light on purpose (no runner code is loaded): the server
 * reads its time limits, ordering and retries here (`@fullstop/engine/kinds`), and each runner carries its own as
 * `runner.facts`. The import path is built from TEST_KINDS only, never from input.
 */
export const kinds = Object.fromEntries(
  await Promise.all(TEST_KINDS.map(async (kind) => [kind, ((await import(`./${kind}/facts.ts`)) as { facts: KindFacts }).facts] as const)),
) as { readonly [K in TestKind]: KindFacts<K> };

/**
 * Whether a run of `kind` that errored with `code` is tried again while attempts remain. An error without a code
 * (a crash) or with one its kind does not name (the server stopping) is; a kind no longer known answers by the
 * codes every run shares.
 */
export function isRetried(kind: string, code: string | null | undefined): boolean {
  if (!code) return true;
  const codes: Readonly<Record<string, { retried: boolean }>> = factsOf(kind)?.errorCodes ?? RUN_ERROR_CODES;
  return codes[code]?.retried ?? true;
}

/** A kind's facts by its name; none for a kind no longer known (a run or report stored before it was retired). */
export function factsOf(kind: string): KindFacts | undefined {
  return (kinds as Partial<Record<string, KindFacts>>)[kind];
}

/**
 * What a test's options add to its kind's weight (negative: take from it), from the manifest's options as written:
 * the further cells of its matrix (engines × devices × networks, decisions 0078 and 0086) and its kind's own
 * `weightFor` (a paced load test, 0088). The server's queue weighs each job by its kind's weight plus this.
 */
export function weightAddedBy(options: Readonly<Record<string, unknown>> | null | undefined, kind: string): number {
  const facts = factsOf(kind);
  const own = facts?.weightFor && options ? facts.weightFor(options) - facts.weight : 0;
  return cellWeightOf(options, kind) + own;
}

/**
 * A kind's weight in cores on a process whose browser tests get `browserWorkers` Playwright workers: its `weight`, and
 * `weightPerWorker` for each worker (a browser test's workers each keep a browser busy). 0 for a kind not known.
 */
export function kindWeightOf(kind: string, browserWorkers: number): number {
  const facts = factsOf(kind);
  return facts ? facts.weight + facts.weightPerWorker * browserWorkers : 0;
}

/** What a test's matrix adds to its kind's weight alone (part of `weightAddedBy`). */
export { cellWeightOf };

/** How many devices a mobile UI test may list: the server bounds a provider's sessions of one attempt by it. */
export { MAX_DEVICES_PER_TEST } from './mobile-ui/options.ts';
