import { kinds, kindWeightOf, weightAddedBy } from '@fullstop/engine/kinds';

/** A job's weight, measured in cores: float sums such as 0.25 + 1.5 are exact, an ENGINE_CAPACITY of 1.3 is not. */
const EPSILON = 1e-6;

/**
 * A light test weighs at most this (cores): an API test, security checks, a mobile app analysis, a mobile UI test on
 * a device cloud, a paced load test. It may run in the light lane (docs/decisions/0091).
 */
const LIGHT_WEIGHT = 0.25;

/** What a fetch may take: the room left, and the kinds that may not start here now. */
export interface FetchRoom {
  /** Cores' worth of work still free in this process for any job: the shared room, the light lane left out. */
  free: number;
  /** For a light job (weight at most `lightWeight`): the shared room plus the light lane's. */
  lightFree: number;
  /** The light lane's own room left: a light job that fits it takes nothing a heavier job could use. */
  laneFree: number;
  /** The most a light job weighs (LIGHT_WEIGHT, with the float sums' slack). */
  lightWeight: number;
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
 * The workers a light lane of this many cores adds to a process that runs tests with a capacity: one per light job
 * it holds, so a light job can start while heavier ones hold every usual worker (docs/decisions/0091).
 */
export function lightLaneWorkers(capacity: number, lane: number): number {
  return capacity > 0 && lane > 0 ? Math.ceil(lane / LIGHT_WEIGHT - EPSILON) : 0;
}

/** Where a process runs, and what it keeps for light jobs. */
interface CapacitySetting {
  workerId: string;
  staleAfterSeconds: number;
  browserWorkers: number;
  /** Cores' worth kept for light jobs on top of the capacity (ENGINE_LIGHT_LANE); 0 or absent: no lane. */
  lightLane?: number;
  /** The most jobs heavier than light running here at once (the usual workers; the lane's workers are for light ones). */
  heavyWorkers?: number;
}

/**
 * How much this process runs at once, in cores' worth of work (docs/decisions/0069): each kind weighs what a run
 * of it keeps busy (its facts' `weight`), and a job is taken only while the weights of the jobs running here
 * leave room for it. A job heavier than the whole capacity still runs, alone: it holds the whole capacity. Total
 * 0: no capacity, only the number of workers limits what runs at once (the behaviour before weights).
 *
 * The light lane (docs/decisions/0091): `lightLane` cores' worth on top of the capacity that only light jobs (at most
 * LIGHT_WEIGHT) may use. A light job counts against the lane first and then against the shared room; a heavier one
 * only fits the shared room that light jobs beyond the lane leave, and only while fewer than `heavyWorkers` of them run.
 */
export class Capacity {
  private heavy = 0;
  private light = 0;
  private heavyRunning = 0;
  private readonly lane: number;
  private readonly running = new Map<string, number>();
  private readonly weights: Readonly<Record<string, number>>;
  private readonly onePerMachine: readonly string[];

  constructor(
    readonly total: number,
    private readonly where: CapacitySetting,
  ) {
    this.lane = total > 0 ? (where.lightLane ?? 0) : 0;
    // A browser test weighs more with each Playwright worker it is given.
    this.weights = Object.fromEntries(Object.values(kinds).map((f) => [f.kind, kindWeightOf(f.kind, where.browserWorkers)]));
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

  /** A job of this weight may run in the light lane. */
  static isLight(weight: number): boolean {
    return weight <= LIGHT_WEIGHT + EPSILON;
  }

  /** The room a fetch may fill now; null when there is no capacity (any job fits). */
  room(): FetchRoom | null {
    if (this.total <= 0) return null;
    const shared = this.total - this.heavy - Math.max(0, this.light - this.lane);
    const heavyMayStart = this.heavyRunning < (this.where.heavyWorkers ?? Infinity);
    return {
      // No worker left for a heavier job: only light ones fit (a room below any weight, 0 included).
      free: heavyMayStart ? shared + EPSILON : -1,
      lightFree: this.total + this.lane - this.heavy - this.light + EPSILON,
      laneFree: this.lane - this.light + EPSILON,
      lightWeight: LIGHT_WEIGHT + EPSILON,
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
    const full = this.weightOf(kind, weightAdded);
    const light = Capacity.isLight(full);
    // A job heavier than the whole capacity holds all of it (it runs alone there), never the light lane.
    const weight = light || this.total <= 0 ? full : Math.min(full, this.total);
    if (light) this.light += weight;
    else {
      this.heavy += weight;
      this.heavyRunning++;
    }
    if (kind) this.running.set(kind, (this.running.get(kind) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (light) this.light -= weight;
      else {
        this.heavy -= weight;
        this.heavyRunning--;
      }
      if (kind) this.running.set(kind, (this.running.get(kind) ?? 1) - 1);
    };
  }

  /** Cores' worth of work running here now (a job heavier than the capacity counted as the capacity). */
  inUse(): number {
    return this.heavy + this.light;
  }
}

/**
 * The cores an attempt holds while it runs here: its job's weight as the queue weighs it (its kind's, and what its
 * options add), at most the whole capacity (a test heavier than the machine runs alone, holding all of it). A browser
 * test runs its parts side by side within them (issue 40). `capacity` 0: no limit, the weight itself.
 */
export function attemptCores(kind: string, options: Readonly<Record<string, unknown>> | null | undefined, where: { capacity: number; browserWorkers: number }): number {
  const weight = kindWeightOf(kind, where.browserWorkers) + weightAddedBy(options, kind);
  return where.capacity > 0 ? Math.min(weight, where.capacity) : weight;
}
