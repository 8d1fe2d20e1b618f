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
  // A program or package the run needs is not installed (lib/engines.ts): it will not be there on the next attempt.
  engine_missing: { retried: false },
  /** The suite's login did not succeed: a wrong password would only fail again (and could lock the account). */
  login_failed: { retried: false },
} as const satisfies Record<SandboxErrorCode | 'validation_error' | 'target_policy' | 'aborted' | 'engine_missing' | 'login_failed', ErrorCodeFact>;

// What a run of a kind costs the machine it runs on: how many runs a worker process starts at once follows from it
// (the server's queue/capacity.ts, docs/decisions/0069).
declare module '../types.ts' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- a merged declaration repeats the interface's type parameter
  interface KindFacts<K extends TestKind = TestKind> {
    /**
     * How much of the machine a run keeps busy, in cores, averaged over the run and counting the runner process,
     * its browsers and tools (measured alone on 2 cores: bench/engine/README.md). A worker process starts a run
     * only while the weights of those it runs leave room for it within its capacity (ENGINE_CAPACITY, in cores).
     */
    weight: number;
    /**
     * A run's weight when its test's options change what it keeps busy (a paced load test: decision 0088), from the
     * manifest's options as written; absent, `weight` whatever the options.
     */
    weightFor?: (options: Readonly<Record<string, unknown>>) => number;
    /** Added to `weight` for each Playwright worker a run is given (RunContext.workers, ENGINE_BROWSER_WORKERS). */
    weightPerWorker: number;
    /** Never two runs of this kind at once on one machine (Lighthouse: its scores measure the machine's CPU). */
    onePerMachine: boolean;
    /**
     * Its figures time work on this machine's CPU (Lighthouse's scores): when the cores are contended, its processes
     * come before other attempts' (a larger share in the attempt's CPU cgroup, sandbox/attempt-cgroup.ts), still
     * after the API's. Others run as background work.
     */
    measuresCpuTime: boolean;
  }
}

/** A kind's names, its limits, its weight, and the programs and packages it needs (none unless it says). */
type KindSpec<K extends TestKind> = Pick<KindFacts<K>, 'title' | 'label' | 'timeLimitSeconds' | 'typicalSeconds' | 'weight'> &
  Partial<Pick<KindFacts<K>, 'engines' | 'enginesFor' | 'onePerMachine' | 'weightFor' | 'weightPerWorker' | 'measuresCpuTime'>>;

/** A kind's facts: its names and limits, the summary of a run that could not run, and its own error codes added to those every run can end with. */
export function defineKind<K extends TestKind>(
  kind: K,
  spec: KindSpec<K>,
  emptySummary: () => SummaryOf<K>,
  errorCodes?: KindFacts<K>['errorCodes'],
): KindFacts<K> {
  return { kind, engines: [], onePerMachine: false, weightPerWorker: 0, measuresCpuTime: false, ...spec, emptySummary, errorCodes: { ...RUN_ERROR_CODES, ...errorCodes } };
}

/** The facts of a kind whose summary is its list of cases: it starts with none. */
export function casesKind<K extends TestKind>(kind: K, spec: KindSpec<K>): KindFacts<K> {
  return defineKind(kind, spec, () => ({ kind, cases: [] }) as SummaryOf<K>);
}
