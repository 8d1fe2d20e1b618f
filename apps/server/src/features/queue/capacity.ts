import { kinds } from '@fullstop/engine/kinds';

/** A job's weight, measured in cores: float sums such as 0.25 + 1.5 are exact, an ENGINE_CAPACITY of 1.3 is not. */
const EPSILON = 1e-6;

/** What a fetch may take: the room left, and the kinds that may not start here now. */
export interface FetchRoom {
  /** Cores' worth of work still free in this process (negative while a job that could never fit runs alone). */
  free: number;
  total: number;
  /** Every kind's weight, as JSON for the query: `{"api":0.25,...}`. */
  weightsJson: string;
  /** Kinds that run one at a time on a machine, as JSON: `["lighthouse"]`. */
  onePerMachineJson: string;
  /** Those of them running in this process now, as JSON (their attempt row may not be written yet). */
  busyHereJson: string;
  /** This process's worker id (`host:pid:random`): one-per-machine kinds running on its host are not taken. */
  workerId: string;
  /** An attempt whose heartbeat is older than this belonged to a dead process and holds nothing. */
  staleAfterSeconds: number;
  /** How long the first job in the fair order may be passed over by lighter ones before it is waited for. */
  headWaitSeconds: number;
}

/**
 * A minute: the first job in the order (a Lighthouse run, a test heavier than the whole capacity) lets lighter jobs
 * go first for this long, then nothing else starts here until it fits, so a steady flow of light tests cannot hold
 * it back for ever. A run-all's heavy tests all start well within it on 2 cores.
 */
export const HEAD_WAIT_SECONDS = 60;

/**
 * How much this process runs at once, in cores' worth of work (docs/decisions/0069): each kind weighs what a run
 * of it keeps busy (its facts' `weight`), and a job is taken only while the weights of the jobs running here
 * leave room for it. A job heavier than the whole capacity still runs, alone. Total 0: no capacity, only the
 * number of workers limits what runs at once (the behaviour before weights).
 */
export class Capacity {
  private used = 0;
  private readonly running = new Map<string, number>();
  private readonly weights: Readonly<Record<string, number>>;
  private readonly onePerMachine: readonly string[];

  constructor(
    readonly total: number,
    private readonly where: { workerId: string; staleAfterSeconds: number; browserWorkers: number },
  ) {
    // A browser test weighs more with each Playwright worker it is given.
    this.weights = Object.fromEntries(Object.values(kinds).map((f) => [f.kind, f.weight + f.weightPerWorker * where.browserWorkers]));
    this.onePerMachine = Object.values(kinds)
      .filter((f) => f.onePerMachine)
      .map((f) => f.kind);
  }

  /**
   * A job's weight: its kind's, plus what its test's options add (`weightAdded`, from the job's data: a browser test
   * on several engines, devices or networks, decision 0078; less for a paced load test, 0088). A kind no longer
   * known (its job only finds its test gone) weighs nothing.
   */
  weightOf(kind: string | null, weightAdded = 0): number {
    return kind === null ? 0 : (this.weights[kind] ?? 0) + weightAdded;
  }

  /** The room a fetch may fill now; null when there is no capacity (any job fits). */
  room(): FetchRoom | null {
    if (this.total <= 0) return null;
    return {
      free: this.total - this.used + EPSILON,
      total: this.total,
      weightsJson: JSON.stringify(this.weights),
      onePerMachineJson: JSON.stringify(this.onePerMachine),
      busyHereJson: JSON.stringify(this.onePerMachine.filter((k) => (this.running.get(k) ?? 0) > 0)),
      workerId: this.where.workerId,
      staleAfterSeconds: this.where.staleAfterSeconds,
      headWaitSeconds: HEAD_WAIT_SECONDS,
    };
  }

  /** Counts a job of this kind (and options) as running here until the returned function is called (once; later calls do nothing). */
  hold(kind: string | null, weightAdded = 0): () => void {
    const weight = this.weightOf(kind, weightAdded);
    this.used += weight;
    if (kind) this.running.set(kind, (this.running.get(kind) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.used -= weight;
      if (kind) this.running.set(kind, (this.running.get(kind) ?? 1) - 1);
    };
  }

  /** Cores' worth of work running here now. */
  inUse(): number {
    return this.used;
  }
}
