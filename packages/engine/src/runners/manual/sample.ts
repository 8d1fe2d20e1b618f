import { sampleReport } from '../../reporters/sample-report.ts';
import type { RunReport } from '../../reporters/types.ts';
import { manualResult } from './result.ts';

/** A checkout case walked on an iPhone, failed at the coupon step with a screenshot. */
export function sample(): RunReport {
  const steps = [
    { action: 'Open the shop and add the blue mug to the cart', expected: 'The cart badge shows 1' },
    { action: 'Open the cart and enter the coupon WINTER10', expected: 'The total drops by 10 %' },
    { action: 'Tap Checkout', expected: 'The payment page opens with the reduced total' },
  ];
  const options = { goal: 'A returning customer can apply a coupon at checkout on a phone', preconditions: ['The account ada@acme.test exists'], testData: { coupon: 'WINTER10' }, steps };
  const result = manualResult('Coupon at checkout', options, [
    {
      platform: 'iPhone 15 · Safari · iOS 18',
      used: 'iPhone 15 · Safari 18.1 · iOS 18.1',
      tester: 'Sam Operator',
      startedAt: '2026-11-23T10:20:00.000Z',
      submittedAt: '2026-11-23T10:31:40.000Z',
      verdict: 'failed',
      steps: [
        { ...steps[0]!, verdict: 'passed', note: null, evidence: [] },
        { ...steps[1]!, verdict: 'failed', note: 'The total stayed at $24.00; the coupon field cleared itself.', evidence: [{ path: 'manual/1-2-1.png', contentType: 'image/png', name: 'cart-after-coupon.png' }] },
        { ...steps[2]!, verdict: null, note: null, evidence: [] },
      ],
    },
  ]);
  return sampleReport({ kind: 'manual', group: 'Checkout', testName: 'Coupon at checkout', status: result.status, totals: result.totals, summary: result.summary, artifacts: result.artifacts });
}
