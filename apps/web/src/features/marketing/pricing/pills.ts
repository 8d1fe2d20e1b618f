/** The spec's 15 feature pills, in its order. */
export const FEATURE_PILLS = [
  'Performance Test',
  'Load Test',
  'Login',
  'Cart',
  'Security',
  'Payment',
  'Search Functionality',
  'User Registration',
  'Data Export',
  'API Integration',
  'Multi-language Support',
  'Mobile Responsiveness',
  'Cross-browser Testing',
  'Accessibility',
  'Database Interaction',
] as const;

export const HIGHLIGHT_COUNT = 5;
export const RESHUFFLE_MS = 5000;

/** Returns a random float in [0, 1), like Math.random; tests inject their own. */
export type RandomSource = () => number;

/**
 * Picks `count` distinct indices out of `total` with a partial Fisher-Yates shuffle, sorted ascending.
 * When `previous` is given the pick is redrawn until it differs, so every reshuffle visibly changes.
 */
export function pickHighlighted(
  total: number,
  count: number,
  random: RandomSource = Math.random,
  previous?: readonly number[],
): number[] {
  if (count > total || count < 0) throw new RangeError(`cannot pick ${count} of ${total}`);
  const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);
  const canDiffer = count > 0 && count < total;
  for (;;) {
    const pool = Array.from({ length: total }, (_, i) => i);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(random() * (total - i));
      [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
    }
    const picked = pool.slice(0, count).sort((a, b) => a - b);
    if (!previous || !canDiffer || !same(picked, previous)) return picked;
  }
}
