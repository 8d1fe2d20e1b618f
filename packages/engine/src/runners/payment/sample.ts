import { PAYMENT_OUTCOMES, type PaymentOutcome } from '@fullstop/contracts';
import { casesSampleReport } from '../../reporters/sample-report.ts';
import type { RunReport } from '../../reporters/types.ts';
import type { CaseResult } from '../../types.ts';

const PAID = 'the page shows a thank-you or confirmation text and an order number such as #FS-1042';
const REFUSED = 'the page shows a decline or error message, not a thank-you or confirmation text';

/** What the shop answered each outcome with, when it answered as expected. */
const ANSWERS: Record<PaymentOutcome, string> = {
  success: 'Thank you for your order. Order #FS-10482',
  declined: 'Payment declined: Your card was declined.',
  'insufficient-funds': 'Payment declined: Your card has insufficient funds.',
  'expired-card': 'Payment declined: Your card has expired.',
  'incorrect-cvc': "Payment declined: Your card's security code is incorrect.",
  '3ds-passed': 'Thank you for your order. Order #FS-10483',
  '3ds-failed': 'Payment declined: We are unable to authenticate your payment method.',
  'processing-error': 'Payment declined: An error occurred while processing your card. Try again in a little bit.',
};

/** A Stripe checkout whose page never leaves "Authenticating…" after a 3-D Secure challenge: both 3-D Secure outcomes fail. */
export function sample(): RunReport {
  const cases: CaseResult[] = PAYMENT_OUTCOMES.map((outcome, i) => {
    const paid = outcome === 'success' || outcome === '3ds-passed';
    const steps = [
      { title: 'Open /checkout', durationMs: 412 },
      { title: `Fill in the Stripe test mode card fields (${outcome})`, durationMs: 655 },
      { title: outcome === 'success' ? 'Click the pay button twice' : 'Click the pay button', durationMs: 61 },
    ];
    const screenshot = `payment/chromium-desktop/${outcome}.png`;
    if (outcome === '3ds-passed' || outcome === '3ds-failed') {
      const actual = 'Authenticating…';
      const expected = paid ? PAID : REFUSED;
      const error = `expected ${expected} within 20 s of paying; it shows "${actual}"`;
      const challenge = { title: outcome === '3ds-passed' ? 'Complete the 3-D Secure challenge' : 'Fail the 3-D Secure challenge', durationMs: 930 };
      const check = { title: paid ? 'Check that the payment went through' : 'Check that the payment was refused', durationMs: 20_004, error };
      return { name: outcome, status: 'failed', durationMs: 22_100 + i, error, expected, actual, steps: [...steps, challenge, check], screenshot };
    }
    const check = { title: paid ? 'Check that the payment went through' : 'Check that the payment was refused', durationMs: paid ? 1_630 : 240 };
    return { name: outcome, status: 'passed', durationMs: 1_500 + i * 37, expected: paid ? `${PAID}, once` : REFUSED, actual: ANSWERS[outcome], steps: [...steps, check], screenshot };
  });
  return { ...casesSampleReport('payment', 'Checkout', 'Card payments', cases), summary: { kind: 'payment', provider: 'stripe', cases } };
}
