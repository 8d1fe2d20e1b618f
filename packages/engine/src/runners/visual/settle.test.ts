import { describe, expect, it } from 'vitest';
import { SETTLE_PAUSE_MS, settle } from './settle.ts';

/** Captures that answer the given frames in turn (the last one again once they run out), with when each was taken. */
function frames(...names: string[]) {
  const at: number[] = [];
  let i = 0;
  return {
    at,
    capture: async () => {
      at.push(performance.now());
      return Buffer.from(names[Math.min(i++, names.length - 1)]!);
    },
  };
}

/** Frames are alike when equal, or when both name the same state ("full" and "full~", a pixel of noise within tolerance). */
const byState = (a: Buffer, b: Buffer) => {
  const state = (x: Buffer) => x.toString().replace(/~$/, '');
  return state(a) === state(b) ? { alike: true } : { alike: false, region: { x: 0, y: state(b).length, width: 10, height: 10 } };
};

const signal = new AbortController().signal;

describe('holding a page still before its shot', () => {
  it('shoots once two captures in a row are alike, pausing between them', async () => {
    const f = frames('shell', 'half', 'full', 'full');
    const settled = await settle(f.capture, byState, 5, signal, 20);
    expect(settled).toMatchObject({ settled: true, captures: 4 });
    expect(settled.png.toString()).toBe('full');
    expect(settled.changes).toHaveLength(2);
    for (let i = 1; i < f.at.length; i++) expect(f.at[i]! - f.at[i - 1]!).toBeGreaterThanOrEqual(19);
    expect(SETTLE_PAUSE_MS).toBe(300);
  });

  it("counts two captures within the comparison's tolerance as still", async () => {
    const settled = await settle(frames('full', 'full~').capture, byState, 5, signal, 1);
    expect(settled).toMatchObject({ settled: true, captures: 2 });
  });

  it('gives up after its bound, with the last two captures and every region that kept changing', async () => {
    const settled = await settle(frames('a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff').capture, byState, 5, signal, 1);
    expect(settled).toMatchObject({ settled: false, captures: 5 });
    expect(settled.png.toString()).toBe('eeeee');
    expect(settled.previous?.toString()).toBe('dddd');
    expect(settled.changes.map((r) => r.y)).toEqual([2, 3, 4, 5]);
  });
});
