import { kinds } from '@fullstop/engine/kinds';
import { describe, expect, it } from 'vitest';
import { line } from './waiting-line.ts';

const waiting = (kind: string, position: number) => ({ runTestId: `rt${position}`, runId: 'r', clientId: 'c', clientName: 'Acme', testName: `t${position}`, kind, position });

describe('the waiting line’s estimates', () => {
  it('plays the queue out on the workers: each test starts when a worker should be free', () => {
    const out = line({ waiting: [waiting('api', 1), waiting('api', 2), waiting('browser', 3), waiting('api', 4)], running: [{ kind: 'browser', elapsed: 10 }], medians: { api: 4, browser: 30 }, slots: 2 });
    // Worker A is free now, worker B in 20 s (its browser test's median is 30 s, 10 s gone).
    expect(out.map((w) => w.startsInSeconds)).toEqual([0, 4, 8, 20]);
  });

  it('uses each kind’s typical time without recent runs, one worker at least, and takes an overrunning test as ending now', () => {
    const out = line({ waiting: [waiting('api', 1), waiting('api', 2), waiting('api', 3)], running: [], medians: {}, slots: 0 });
    expect(out.map((w) => w.startsInSeconds)).toEqual([0, kinds.api.typicalSeconds, 2 * kinds.api.typicalSeconds]);
    expect(line({ waiting: [waiting('api', 1)], running: [{ kind: 'api', elapsed: 99 }], medians: { api: 4 }, slots: 1 })[0]!.startsInSeconds).toBe(0);
  });
});
