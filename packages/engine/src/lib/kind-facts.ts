import type { SandboxErrorCode } from '../sandbox/supervisor.ts';
import type { ErrorCodeFact, KindFacts, SummaryOf, TestKind } from '../types.ts';

/**
 * Error codes a run of any kind can end with. Bad options, a refused address and the time limit would only
 * repeat on another attempt; a crash, memory over the limit or a cancelled run may not.
 */
export const RUN_ERROR_CODES = {
  validation_error: { retried: false },
  target_policy: { retried: false },
  time_limit: { retried: false },
  aborted: { retried: true },
  crashed: { retried: true },
  out_of_memory: { retried: true },
  start_failed: { retried: true },
  /** The suite's login did not succeed: a wrong password would only fail again (and could lock the account). */
  login_failed: { retried: false },
} as const satisfies Record<SandboxErrorCode | 'validation_error' | 'target_policy' | 'aborted' | 'login_failed', ErrorCodeFact>;

/** A kind's facts: its limits, the summary of a run that could not run, and its own error codes added to those every run can end with. */
export function defineKind<K extends TestKind>(
  kind: K,
  limits: Pick<KindFacts<K>, 'timeLimitSeconds' | 'typicalSeconds'>,
  emptySummary: () => SummaryOf<K>,
  errorCodes?: KindFacts<K>['errorCodes'],
): KindFacts<K> {
  return { kind, ...limits, emptySummary, errorCodes: { ...RUN_ERROR_CODES, ...errorCodes } };
}

/** The facts of a kind whose summary is its list of cases: it starts with none. */
export function casesKind<K extends TestKind>(kind: K, limits: Pick<KindFacts<K>, 'timeLimitSeconds' | 'typicalSeconds'>): KindFacts<K> {
  return defineKind(kind, limits, () => ({ kind, cases: [] }) as SummaryOf<K>);
}
