import { describe, expect, it } from 'vitest';
import { kinds } from '../runners/kinds.ts';
import { TEST_KINDS } from '../types.ts';

describe('what a run of each kind weighs (docs/decisions/0069)', () => {
  it('weighs light, medium, heavier and heaviest kinds in that order, each within a 2-core machine', () => {
    // With one Playwright worker a browser test (the default on 2 cores).
    const w = (kind: keyof typeof kinds) => kinds[kind].weight + kinds[kind].weightPerWorker;
    // A manual case weighs nothing: a tester executes it, no worker does (docs/decisions/0099).
    for (const kind of TEST_KINDS.filter((k) => k !== 'manual')) expect(w(kind), kind).toBeGreaterThan(0);
    expect(w('manual')).toBe(0);
    for (const kind of TEST_KINDS) expect(w(kind), `${kind} fits 2 cores with a light test beside it`).toBeLessThanOrEqual(2 - w('api'));
    for (const light of ['api', 'security-checks', 'mobile-static'] as const) expect(w(light)).toBeLessThan(w('load'));
    for (const heavier of ['browser', 'accessibility'] as const) expect(w(heavier)).toBeGreaterThanOrEqual(w('load'));
    // Only a browser test grows with its Playwright workers.
    expect(TEST_KINDS.filter((k) => kinds[k].weightPerWorker > 0)).toEqual(['browser']);
  });

  it('lets the three longest, mostly waiting kinds start together on 2 cores: Lighthouse, a security scan and a browser test (docs/decisions/0112)', () => {
    const w = (kind: keyof typeof kinds) => kinds[kind].weight + kinds[kind].weightPerWorker;
    expect(w('lighthouse') + w('security-scan') + w('browser')).toBeLessThanOrEqual(2);
    // Neither is light: each keeps a browser or an attack tool busy, never in the light lane (decision 0091).
    expect(Math.min(w('lighthouse'), w('security-scan'))).toBeGreaterThan(w('api'));
  });

  it('runs Lighthouse one at a time on a machine, and every other kind side by side', () => {
    expect(TEST_KINDS.filter((k) => kinds[k].onePerMachine)).toEqual(['lighthouse']);
  });

  it('lets a browser test and a light test run beside Lighthouse on 2 cores, Lighthouse first for the CPU (docs/decisions/0087, 0088)', () => {
    const w = (kind: keyof typeof kinds) => kinds[kind].weight + kinds[kind].weightPerWorker;
    expect(w('lighthouse') + w('browser') + w('api')).toBeLessThanOrEqual(2);
    expect(TEST_KINDS.filter((k) => kinds[k].measuresCpuTime)).toEqual(['lighthouse']);
  });
});
