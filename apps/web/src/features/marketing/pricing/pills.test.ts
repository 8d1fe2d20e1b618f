import { describe, expect, it } from 'vitest';
import { FEATURE_PILLS, HIGHLIGHT_COUNT, pickHighlighted } from './pills.ts';

/** A deterministic source cycling through the given values. */
function sequence(...values: number[]) {
  let i = 0;
  return () => values[i++ % values.length] as number;
}

describe('feature pills', () => {
  it('has the 15 pills of the spec', () => {
    expect(FEATURE_PILLS).toHaveLength(15);
    expect(new Set(FEATURE_PILLS).size).toBe(15);
  });

  it('picks 5 distinct indices within range', () => {
    for (let run = 0; run < 200; run++) {
      const picked = pickHighlighted(15, HIGHLIGHT_COUNT);
      expect(picked).toHaveLength(5);
      expect(new Set(picked).size).toBe(5);
      expect(picked.every((i) => i >= 0 && i < 15)).toBe(true);
    }
  });

  it('is deterministic with an injected random source', () => {
    expect(pickHighlighted(15, 5, sequence(0))).toEqual([0, 1, 2, 3, 4]);
    expect(pickHighlighted(15, 5, sequence(0.999))).toEqual([0, 1, 2, 3, 14]);
    expect(pickHighlighted(15, 5, sequence(0.5, 0.1))).toEqual(pickHighlighted(15, 5, sequence(0.5, 0.1)));
  });

  it('redraws until the pick differs from the previous one', () => {
    const random = sequence(0, 0, 0, 0, 0, 0.999);
    const picked = pickHighlighted(15, 5, random, [0, 1, 2, 3, 4]);
    expect(picked).not.toEqual([0, 1, 2, 3, 4]);
    expect(picked).toHaveLength(5);
  });

  it('gives every pill a fair chance', () => {
    const counts = new Array<number>(15).fill(0);
    for (let run = 0; run < 3000; run++) for (const i of pickHighlighted(15, 5)) counts[i]! += 1;
    // Expected 1000 each; a fair shuffle stays well within 20 %.
    for (const c of counts) expect(c).toBeGreaterThan(800);
  });

  it('rejects impossible requests', () => {
    expect(() => pickHighlighted(3, 5)).toThrow(RangeError);
  });
});
