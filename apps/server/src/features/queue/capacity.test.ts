import { cellWeightOf, weightAddedBy } from '@fullstop/engine/kinds';
import { describe, expect, it } from 'vitest';
import { attemptCores, Capacity, lightLaneWorkers } from './capacity.ts';

/**
 * A test's weight grows with its cells (decision 0078): each cell beyond one Chromium cell adds its engine's weight,
 * Firefox's more than Chromium's. The fetch (job-repository.ts) takes a job heavier than the whole capacity only when
 * nothing runs here: it runs alone. weighted-capacity.test.ts checks that through the queue.
 */
const twoCores = () => new Capacity(2, { workerId: 'here:1:abc', staleAfterSeconds: 30, browserWorkers: 1 });

describe('a test weighs its cells', () => {
  it('keeps the weight of a test on one Chromium cell, with or without the options that say so', () => {
    const capacity = twoCores();
    expect(capacity.weightOf('browser')).toBe(1);
    for (const options of [{}, { engines: ['chromium'] }, { engines: ['chromium'], devices: ['desktop'], networks: ['none'] }, { specs: 'a.spec.ts' }]) {
      expect(cellWeightOf(options)).toBe(0);
      expect(capacity.weightOf('browser', cellWeightOf(options))).toBe(1);
    }
    expect(capacity.weightOf('accessibility', cellWeightOf({ pages: ['/'] }))).toBe(1);
    // A kind without the matrix: its options have none of its fields.
    expect(capacity.weightOf('api', cellWeightOf({ requests: [] }))).toBe(0.25);
  });

  it('weighs a 6-cell test on 2 cores more than the machine, so it runs alone', () => {
    const capacity = twoCores();
    const sixCells = cellWeightOf({ engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'] });
    expect(capacity.weightOf('browser', sixCells)).toBeGreaterThan(capacity.total);
    expect(capacity.weightOf('accessibility', sixCells)).toBeGreaterThan(capacity.total);
    // Six Chromium cells (three devices on two networks) too.
    expect(capacity.weightOf('browser', cellWeightOf({ devices: ['desktop', 'phone', 'tablet'], networks: ['none', 'slow-3g'] }))).toBeGreaterThan(capacity.total);
    // Held, it leaves no room: nothing else fits beside it.
    capacity.hold('browser', sixCells);
    expect(capacity.room()!.free).toBeLessThan(0.25);
  });

  it('weighs a Firefox cell more than a Chromium cell', () => {
    const chromiumPhone = cellWeightOf({ engines: ['chromium'], devices: ['desktop', 'phone'] });
    const firefoxPhone = cellWeightOf({ engines: ['firefox'], devices: ['desktop', 'phone'] });
    expect(chromiumPhone).toBeGreaterThan(0);
    expect(firefoxPhone).toBeGreaterThan(chromiumPhone);
    expect(cellWeightOf({ engines: ['firefox'] })).toBeGreaterThan(0);
    // Two Chromium cells still leave room for an API test beside them on 2 cores.
    expect(twoCores().weightOf('browser', chromiumPhone) + 0.25).toBeLessThanOrEqual(2);
  });

  it('weighs a test whose cells run one at a time as one cell, so it can run beside another browser test', () => {
    const capacity = twoCores();
    const everyEngine = { engines: ['chromium', 'firefox', 'webkit'], devices: ['phone'] };
    // The demo's page checks on three engines: one browser at a time (decision 0086).
    const pageChecks = cellWeightOf({ ...everyEngine, pages: [{ path: '/' }] }, 'browser');
    expect(pageChecks).toBe(0);
    expect(capacity.weightOf('browser', pageChecks) + capacity.weightOf('browser')).toBeLessThanOrEqual(capacity.total);
    for (const kind of ['accessibility', 'visual']) expect(cellWeightOf({ engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'] }, kind)).toBe(0);
    // Spec files run their cells side by side in Playwright's workers: each cell still counts, with or without pages.
    expect(cellWeightOf({ ...everyEngine, specs: 'a.spec.ts', pages: [{ path: '/' }] }, 'browser')).toBeGreaterThan(1);
    expect(cellWeightOf(everyEngine, 'browser')).toBeGreaterThan(1);
    // Without the kind, every cell counts.
    expect(cellWeightOf({ ...everyEngine, pages: [{ path: '/' }] })).toBeGreaterThan(1);
  });

  it('weighs a paced load test by its pace, and one as fast as it is answered as a core (decision 0088)', () => {
    const capacity = twoCores();
    const load = { requests: [{ path: '/' }], connections: 10, durationSeconds: 4 };
    const weight = (options: Record<string, unknown>) => capacity.weightOf('load', weightAddedBy(options, 'load'));
    // The demo's Home page load: 50 requests a second weighs its runner, as an API test does.
    expect(weight({ ...load, rate: 50 })).toBe(capacity.weightOf('api'));
    expect(weight({ ...load, rate: 2_500 })).toBe(0.25);
    expect(weight({ ...load, rate: 5_000 })).toBe(0.5);
    expect(weight({ ...load, rate: 100_000 })).toBe(1);
    expect(weight(load)).toBe(1);
    // Stages set the pace by their connections: as fast as they are answered.
    expect(weight({ requests: [{ path: '/' }], stages: [{ durationSeconds: 5, target: 10 }] })).toBe(1);
    // Other kinds keep their weight whatever a `rate` says; a browser test still adds its cells.
    expect(weightAddedBy({ rate: 50 }, 'api')).toBe(0);
    expect(weightAddedBy({ engines: ['chromium', 'firefox'] }, 'browser')).toBe(cellWeightOf({ engines: ['chromium', 'firefox'] }, 'browser'));
  });

  it('gives back exactly what it held', () => {
    const capacity = twoCores();
    const release = capacity.hold('browser', cellWeightOf({ engines: ['chromium', 'firefox'] }));
    expect(capacity.inUse()).toBeGreaterThan(1);
    release();
    release();
    expect(capacity.inUse()).toBe(0);
  });
});

/**
 * The light lane (decision 0091): room on top of the capacity that only light jobs (at most a quarter of a core) may
 * use, and workers of its own. job-repository.ts reads `free` for heavier jobs and `lightFree` for light ones;
 * light-lane.test.ts checks that through the queue.
 */
describe('the light lane', () => {
  const withLane = (lane: number, heavyWorkers?: number) => new Capacity(2, { workerId: 'here:1:abc', staleAfterSeconds: 30, browserWorkers: 1, lightLane: lane, heavyWorkers });
  const sixCells = cellWeightOf({ engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'] });

  it('counts the light kinds (a quarter of a core at most) and no heavier one', () => {
    const capacity = withLane(0.5);
    const weight = (kind: string, options: Record<string, unknown> = {}) => capacity.weightOf(kind, weightAddedBy(options, kind));
    for (const light of [weight('api'), weight('security-checks'), weight('mobile-static'), weight('mobile-ui'), weight('load', { requests: [], connections: 10, rate: 50 })]) {
      expect(Capacity.isLight(light)).toBe(true);
    }
    for (const heavy of [weight('browser'), weight('accessibility'), weight('visual'), weight('lighthouse'), weight('security-scan'), weight('load', { requests: [] })]) {
      expect(Capacity.isLight(heavy)).toBe(false);
    }
  });

  it('keeps its room for light jobs while heavier ones fill the capacity', () => {
    const capacity = withLane(0.5);
    capacity.hold('browser');
    capacity.hold('browser');
    const room = capacity.room()!;
    // No room for a heavier job, two API tests' worth for light ones.
    expect(room.free).toBeLessThan(0.25);
    expect(room.lightFree).toBeGreaterThanOrEqual(0.5);
    capacity.hold('api');
    capacity.hold('api');
    expect(capacity.room()!.lightFree).toBeLessThan(0.25);
  });

  it('keeps it beside a test heavier than the whole capacity, which holds the capacity alone', () => {
    const capacity = withLane(0.5);
    capacity.hold('browser', sixCells);
    expect(capacity.inUse()).toBe(2);
    expect(capacity.room()!.free).toBeLessThan(0.25);
    expect(capacity.room()!.lightFree).toBeGreaterThanOrEqual(0.5);
  });

  it('lets light jobs use the shared room too, the lane first, and heavier jobs what they leave of it', () => {
    const capacity = withLane(0.5);
    const releases = [capacity.hold('api'), capacity.hold('api')];
    // Two API tests fill the lane: the shared room is whole.
    expect(capacity.room()!.free).toBeCloseTo(2);
    expect(capacity.room()!.laneFree).toBeCloseTo(0);
    releases.push(capacity.hold('api'), capacity.hold('api'));
    // Two more overflow into the shared room.
    expect(capacity.room()!.free).toBeCloseTo(1.5);
    expect(capacity.room()!.lightFree).toBeCloseTo(1.5);
    for (const release of releases) release();
    expect(capacity.room()!).toMatchObject({ free: expect.closeTo(2), lightFree: expect.closeTo(2.5), laneFree: expect.closeTo(0.5) });
  });

  it('starts heavier jobs only on the usual workers; the lane’s workers are for light ones', () => {
    const capacity = withLane(0.5, 1);
    const release = capacity.hold('browser');
    // A core is free, but the one usual worker runs a browser test.
    expect(capacity.room()!.free).toBeLessThan(0);
    expect(capacity.room()!.lightFree).toBeGreaterThan(1);
    release();
    expect(capacity.room()!.free).toBeCloseTo(2);
    // One worker per light job the lane holds; none without a capacity or a lane.
    expect(lightLaneWorkers(2, 0.5)).toBe(2);
    expect(lightLaneWorkers(2, 0.3)).toBe(2);
    expect(lightLaneWorkers(2, 1)).toBe(4);
    expect(lightLaneWorkers(0, 0.5)).toBe(0);
    expect(lightLaneWorkers(2, 0)).toBe(0);
  });

  it('without a lane, offers light and heavier jobs the same room, as before', () => {
    const capacity = withLane(0);
    capacity.hold('browser');
    capacity.hold('api');
    const room = capacity.room()!;
    expect(room.lightFree).toBeCloseTo(room.free);
    expect(room.free).toBeCloseTo(0.75);
    expect(room.laneFree).toBeLessThan(0.25);
    // Without a capacity, no lane either.
    expect(new Capacity(0, { workerId: 'here:1:abc', staleAfterSeconds: 30, browserWorkers: 1, lightLane: 0.5 }).room()).toBeNull();
  });
});

describe('the cores an attempt holds', () => {
  const here = { capacity: 2, browserWorkers: 1 };
  it('is its weight, and the whole machine for a test heavier than it', () => {
    // The 12-cell test runs alone: it may use both cores, its spec files beside its page checks.
    const twelveCells = { engines: ['chromium', 'firefox', 'webkit'], devices: ['desktop', 'phone'], networks: ['4g', 'slow-3g'], specs: '*.spec.ts', pages: [{ path: '/' }] };
    expect(attemptCores('browser', twelveCells, here)).toBe(2);
    expect(twoCores().weightOf('browser', weightAddedBy(twelveCells, 'browser'))).toBeGreaterThan(2);
    // One Chromium cell, or page checks whose cells run within one core: a core.
    expect(attemptCores('browser', {}, here)).toBe(1);
    expect(attemptCores('browser', { engines: ['chromium', 'firefox'], pages: [{ path: '/' }] }, here)).toBe(1);
    expect(attemptCores('api', {}, here)).toBe(0.25);
    // Without a capacity (no limit but the workers), the weight itself.
    expect(attemptCores('browser', twelveCells, { capacity: 0, browserWorkers: 1 })).toBeGreaterThan(2);
  });
});
