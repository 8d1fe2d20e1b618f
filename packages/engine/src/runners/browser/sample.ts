import { sampleReport } from '../../reporters/sample-report.ts';
import type { RunReport } from '../../reporters/types.ts';

/** A failed checkout flow: a failure with steps, screenshot and trace, passes, a skip. */
export function sample(): RunReport {
  return sampleReport({
    testName: 'Checkout flow',
    status: 'failed',
    totals: { totalTests: 5, passedTests: 3, failedTests: 1, skippedTests: 1 },
    summary: {
      kind: 'browser',
      cases: [
        { name: 'home.spec.ts › shows the catalogue', status: 'passed', durationMs: 20.589947000145912 },
        {
          name: 'checkout.spec.ts › pays by card',
          status: 'failed',
          durationMs: 31_204.2,
          error: "Error: expect(locator).toHaveText(expected)\n\nExpected: \"Thank you\"\nReceived: \"Payment declined\"\n\n  at checkout.spec.ts:42:7",
          steps: [
            { title: 'page.goto(/cart)', durationMs: 812 },
            { title: 'click "Pay now"', durationMs: 230 },
            { title: 'expect(locator).toHaveText("Thank you")', durationMs: 30_000, error: 'Timed out 30000ms waiting for expect(locator).toHaveText' },
          ],
          screenshot: 'test-results/checkout-pays-by-card/test-failed-1.png',
          trace: 'test-results/checkout-pays-by-card/trace.zip',
        },
        { name: 'checkout.spec.ts › applies a voucher', status: 'passed', durationMs: 2_300 },
        { name: 'search.spec.ts › finds a product', status: 'passed', durationMs: 1_180.4 },
        { name: 'account.spec.ts › deletes the account', status: 'skipped', durationMs: 0 },
      ],
    },
  });
}
