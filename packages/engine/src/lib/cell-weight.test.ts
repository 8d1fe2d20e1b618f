import { describe, expect, it } from 'vitest';
import { cellBusy, runWithin, specWorkersWithin } from './cell-weight.ts';
import type { Network } from '../policy/network-profiles.ts';

/** A work item that ends when told: the pool's order of starts is read without any clock. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return { done, open };
}

describe('cells that wait run together', () => {
  it('starts as many cells as their shares fit in the budget, the first that fits as soon as one ends', async () => {
    const cells: Network[] = ['slow-3g', 'slow-3g', 'slow-3g', 'slow-3g', 'slow-3g', 'none', '4g'];
    const gates = cells.map(() => gate());
    const started: number[] = [];
    const pool = runWithin(
      cells.map((network, i) => ({ network, i })),
      (c) => cellBusy(c.network),
      1,
      async ({ i }) => {
        started.push(i);
        await gates[i]!.done;
      },
    );
    const settle = () => new Promise((r) => setImmediate(r));
    await settle();
    // Four slow-3G cells fill the core; the fifth waits.
    expect(started).toEqual([0, 1, 2, 3]);
    gates[1]!.open();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    // An unshaped cell keeps a core busy alone: the 4G cell after it fits beside the last slow one and passes it.
    for (const i of [0, 2, 3]) gates[i]!.open();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4, 6]);
    gates[4]!.open();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4, 6]);
    gates[6]!.open();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4, 6, 5]);
    gates[5]!.open();
    await pool;
  });

  it('starts nothing after a cell throws, waits for those running, and throws the first error', async () => {
    const ended: number[] = [];
    const last = gate();
    const pool = runWithin([0, 1, 2, 3], () => 0.5, 1, async (i) => {
      if (i === 0) throw new Error('aborted');
      await last.done;
      ended.push(i);
    });
    await new Promise((r) => setImmediate(r));
    last.open();
    await expect(pool).rejects.toThrow('aborted');
    // Cell 1 was running beside cell 0 and ended; cells 2 and 3 never started.
    expect(ended).toEqual([1]);
  });

  it('runs an item heavier than the budget alone rather than never', async () => {
    const ran: number[] = [];
    await runWithin([1, 2], () => 3, 1, async (i) => {
      ran.push(i);
    });
    expect(ran).toEqual([1, 2]);
  });
});

describe("the spec files' workers", () => {
  it('run as many cells at once as the busiest one lets share the cores, never fewer than the cores or more than the cells', () => {
    // An unshaped cell keeps its core busy alone: as before issue 40.
    expect(specWorkersWithin(1, ['none', 'none', 'none'])).toBe(1);
    expect(specWorkersWithin(2, ['none', '4g', 'slow-3g'])).toBe(2);
    // 4G keeps half a core busy: two 4G cells to a core; with a slow-3G cell beside them, 4G still sets it.
    expect(specWorkersWithin(1, ['4g', '4g', 'slow-3g', 'slow-3g'])).toBe(2);
    expect(specWorkersWithin(1, ['slow-3g', 'slow-3g', 'slow-3g', 'slow-3g', 'slow-3g'])).toBe(4);
    expect(specWorkersWithin(2, ['4g', '4g', '4g', '4g', '4g', '4g', '4g', '4g'])).toBe(4);
    // Never more workers than cells: a worker a cell at most runs them all at once.
    expect(specWorkersWithin(1, ['slow-3g', 'slow-3g'])).toBe(2);
    expect(specWorkersWithin(2, ['slow-3g'])).toBe(2);
  });
});
