import { describe, expect, it } from 'vitest';
import { toJunit } from '../../reporters/junit-reporter.ts';
import { parseTestInput } from '../../lib/options.ts';
import { sample } from './sample.ts';
import { manualInput, platformLabel } from './options.ts';
import { manualResult } from './result.ts';

const test = (options: Record<string, unknown>) => ({ name: 'Coupon', group: 'Checkout', kind: 'manual' as const, options });
const steps = [
  { action: 'Open the cart', expected: 'The cart shows one mug' },
  { action: 'Enter WINTER10', expected: 'The total drops by 10 %', wcag: ['3.3.1'] },
];

describe('manual test cases', () => {
  it('validates a case by field, with its defaults', () => {
    const { options } = parseTestInput(manualInput, test({ goal: 'A coupon lowers the total', steps }));
    expect(options.platforms).toEqual([{ device: 'desktop' }]);
    expect(options.estimateMinutes).toBe(15);
    expect(() => parseTestInput(manualInput, test({ goal: 'x', steps: [] }))).toThrow('options.steps: a manual case needs at least one step');
    expect(() => parseTestInput(manualInput, test({ goal: 'x', steps: [{ action: 'Tap', expected: '' }] }))).toThrow('options.steps.0.expected: expected must not be empty');
    expect(() => parseTestInput(manualInput, test({ goal: 'x', steps: [{ action: 'Tap', expected: 'ok', wcag: ['2.1'] }] }))).toThrow('a WCAG success criterion is written like 2.1.1');
    expect(() => parseTestInput(manualInput, test({ goal: 'x', steps, references: ['../secrets.txt'] }))).toThrow('options.references.0: must be a file inside the suite folder');
    expect(() => parseTestInput(manualInput, test({ goal: 'x', steps, script: 'rm -rf /' }))).toThrow('options');
    const listed = parseTestInput(manualInput, test({ goal: 'x', steps, platforms: [{ device: 'iPhone 15', browser: 'Safari', os: 'iOS 18' }, { device: 'Pixel 8', browser: 'Chrome' }] }));
    expect(listed.options.platforms.map(platformLabel)).toEqual(['iPhone 15 · Safari · iOS 18', 'Pixel 8 · Chrome']);
  });

  it('fails on the step a tester failed, with its text in JUnit, and counts one case per platform', () => {
    const result = manualResult('Coupon', { goal: 'g', preconditions: [], testData: {}, steps }, [
      { platform: 'iPhone 15', used: 'iPhone 15 · Safari 18', tester: 'Sam', startedAt: '2026-11-23T10:00:00Z', submittedAt: '2026-11-23T10:05:00Z', verdict: 'passed', steps: steps.map((s) => ({ ...s, verdict: 'passed' as const, note: null, evidence: [] })) },
      {
        platform: 'Pixel 8',
        used: 'Pixel 8 · Chrome 131',
        tester: 'Sam',
        startedAt: '2026-11-23T10:10:00Z',
        submittedAt: '2026-11-23T10:12:00Z',
        verdict: 'failed',
        steps: [
          { ...steps[0]!, verdict: 'passed', note: null, evidence: [] },
          { ...steps[1]!, verdict: 'failed', note: 'The total did not change', evidence: [{ path: 'manual/2-2-1.png', contentType: 'image/png', name: 'cart.png' }] },
        ],
      },
    ]);
    expect(result.status).toBe('failed');
    expect(result.totals).toEqual({ totalTests: 2, passedTests: 1, failedTests: 1, skippedTests: 0 });
    expect(result.summary.kind === 'manual' && result.summary.wcag).toEqual(['3.3.1']);
    const failed = result.summary.kind === 'manual' ? result.summary.cases[1]! : null;
    expect(failed).toMatchObject({ name: 'Coupon on Pixel 8', status: 'failed', screenshot: 'manual/2-2-1.png', durationMs: 120_000 });
    expect(failed?.error).toBe('Step 2 failed: Enter WINTER10\nExpected: The total drops by 10 %\nNote: The total did not change');
    expect(result.artifacts).toEqual([{ path: 'manual/2-2-1.png', kind: 'screenshot', contentType: 'image/png', label: 'Step 2: cart.png' }]);
    const junit = toJunit({ ...sample(), summary: result.summary, totals: result.totals, status: 'failed' });
    expect(junit).toContain('<testcase classname="Checkout.Coupon at checkout" name="Coupon on Pixel 8"');
    expect(junit).toContain('<failure message="Step 2 failed: Enter WINTER10">');
  });

  it('ends a case nobody executed as not run, never as passed', () => {
    const result = manualResult('Coupon', { goal: 'g', preconditions: [], testData: {}, steps }, [
      { platform: 'desktop', used: null, tester: null, startedAt: null, submittedAt: null, verdict: 'not-run', notRunReason: 'not run: no tester executed it by its due time', steps: steps.map((s) => ({ ...s, verdict: null, note: null, evidence: [] })) },
    ]);
    expect(result.status).toBe('error');
    expect(result.errorCode).toBe('not_run');
    expect(result.error).toBe('not run: no tester executed it by its due time');
    expect(result.totals).toEqual({ totalTests: 1, passedTests: 0, failedTests: 0, skippedTests: 1 });
  });
});
