import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { liveCardRefusal, PAYMENT_OUTCOMES } from '@fullstop/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../src/errors.ts';
import { parseTestInput } from '../src/lib/options.ts';
import { browserRunner } from '../src/runners/browser/index.ts';
import { paymentRunner } from '../src/runners/payment/index.ts';
import { paymentInput } from '../src/runners/payment/options.ts';
import { LiveCardRefusedError, payWithCard } from '../src/runners/payment/pay-with-card.ts';
import { report } from '../src/runners/payment/report.ts';
import { readSuiteFolder } from '../src/suite/suite-files.ts';
import { validateSuite } from '../src/suite/validate-suite.ts';
import type { RunnerResult } from '../src/types.ts';
import { startFakeProvider } from './fixtures/payments/provider.ts';
import { LEAKED_CARD, startFakeShop } from './fixtures/payments/shop.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

const SUITE_DIR = path.resolve(import.meta.dirname, '../../../suites/payments');

/** The payment kind (issue 43) in Debian's Chromium and Firefox, against a fake shop and fake providers' fields. */
describe('payments with sandbox cards', () => {
  const provider = serverForSuite(startFakeProvider);
  const shop = serverForSuite(() => startFakeShop(provider));
  const broken = serverForSuite(() => startFakeShop(provider, { broken3ds: true }));
  const charging = serverForSuite(() => startFakeShop(provider, { doubleCharge: true }));
  // The provider's origin is open for the test, as a provider preset opens its origins for a client.
  const target = (url: string) => localTarget(url, { allowedOrigins: [provider.url] });

  async function pay(url: string, options: Record<string, unknown>) {
    const ctx = await makeContext();
    const result = await paymentRunner.run(testOf('payment', options, { name: 'Card payments' }), target(url), ctx);
    if (result.summary.kind !== 'payment') throw new Error('wrong summary');
    return { result, cases: result.summary.cases, summary: result.summary, ctx };
  }

  const statuses = (cases: { name: string; status: string }[]) => Object.fromEntries(cases.map((c) => [c.name, c.status]));
  const reportOf = (result: RunnerResult) => ({ ...result, testName: 'Card payments', group: 'Checkout', kind: 'payment' }) as never;

  it('pays every outcome on a good Stripe checkout reached by steps, each with its own message and a screenshot', async () => {
    const payments = () => shop.requests.filter((r) => r.url === '/api/pay').length;
    const before = payments();
    const { result, cases, summary, ctx } = await pay(shop.url, {
      provider: 'stripe',
      start: '/',
      steps: [{ click: { role: 'link', name: 'Pay with Stripe' } }, { fill: { label: 'Email', value: 'buyer@example.test' } }],
      expect: {
        success: { text: 'Thank you for your order', orderId: 'Order #FS-\\d+' },
        declined: { text: 'Your card was declined' },
        'insufficient-funds': { text: 'insufficient funds' },
        'expired-card': { text: 'Your card has expired' },
        'incorrect-cvc': { text: 'security code is incorrect' },
        '3ds-failed': { text: 'unable to authenticate' },
        'processing-error': { text: 'error occurred while processing' },
      },
    });
    expect(result.error).toBeUndefined();
    expect(statuses(cases)).toEqual(Object.fromEntries(PAYMENT_OUTCOMES.map((o) => [o, 'passed'])));
    expect(result.status).toBe('passed');
    expect(summary.provider).toBe('stripe');
    const byName = Object.fromEntries(cases.map((c) => [c.name, c]));
    expect(byName['3ds-passed']!.actual).toMatch(/^Thank you for your order\. Order #FS-\d+$/);
    expect(byName['insufficient-funds']!.actual).toBe('Payment failed: Your card has insufficient funds.');
    // The steps to the form, the payment's stages, the check: the success paid with a double click, 3-D Secure answered.
    expect(byName.success!.steps!.map((s) => s.title)).toEqual([
      'Open /',
      'Click the link "Pay with Stripe"',
      'Fill in "Email"',
      'Fill in the Stripe test mode card fields for a successful payment (•••• 4242, 12/27, CVC 123)'.replace('12/27', `12/${String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0')}`),
      'Click the pay button twice',
      'Check that the payment went through',
    ]);
    expect(byName['3ds-failed']!.steps!.map((s) => s.title)).toContain('Fail the 3-D Secure challenge');
    // One charge per outcome: the double click on the good shop made one order.
    expect(payments() - before).toBe(PAYMENT_OUTCOMES.length);
    for (const c of cases) expect((await readFile(path.join(ctx.runDir, c.screenshot!))).subarray(1, 4).toString(), c.name).toBe('PNG');
    expect(report.verdict(reportOf(result), summary)).toBe('All 8 outcomes end as expected');
    expect(report.keyFigure(reportOf(result), summary)).toBe('8 of 8 outcomes as expected');
  });

  it('fails exactly the 3-D Secure outcomes on a shop that never shows the challenge’s result, and says so', async () => {
    // An outcome without 3-D Secure beside the two with it: what tells "3-D Secure only" from "every outcome".
    const outcomes = ['success', '3ds-passed', '3ds-failed'];
    const { result, cases, summary } = await pay(broken.url, { provider: 'stripe', start: '/checkout/stripe', outcomes, outcomeTimeoutMs: 5000 });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('failed');
    expect(statuses(cases)).toEqual({ success: 'passed', '3ds-passed': 'failed', '3ds-failed': 'failed' });
    const failed = cases.filter((c) => c.status === 'failed');
    for (const c of failed) {
      expect(c.error).toMatch(/within 5 s of paying; it shows "Authenticating…"$/);
      expect(c.actual).toBe('Authenticating…');
    }
    expect(result.totals).toEqual({ totalTests: 3, passedTests: 1, failedTests: 2, skippedTests: 0 });
    expect(report.verdict(reportOf(result), summary)).toBe('The checkout fails on 3-D Secure only');
    // The report: a row per outcome, the screenshot after each, the failures in words.
    const html = report.body(reportOf(result), summary, { image: (p) => `data:image/png;base64,${Buffer.from(p).toString('base64')}` });
    expect(html).toContain('<h2>Outcomes with Stripe test mode cards (3)</h2>');
    expect(html.match(/<img class="shot"/g)).toHaveLength(3);
    expect(html.indexOf('a passed 3-D Secure challenge')).toBeLessThan(html.indexOf(`data:image/png;base64,${Buffer.from('payment/chromium-desktop/3ds-passed.png').toString('base64')}`));
    expect(html).toContain('<b>3-D Secure only</b><span>fails on</span>');
    const condensed = report.body(reportOf(result), summary, { condensed: true });
    expect(condensed).toContain('<h2>Failed outcomes (2)</h2>');
    expect(condensed).not.toContain('<img');
  });

  it('fails a success that a double click on the pay button charges twice', async () => {
    const { result, cases } = await pay(charging.url, { provider: 'stripe', start: '/checkout/stripe', outcomes: ['success'] });
    expect(result.status).toBe('failed');
    expect(cases[0]!.error).toMatch(/^the page shows 2 orders after the pay button was clicked twice \(#FS-\d+, #FS-\d+\): the payment may have been charged twice$/);
    expect(charging.requests.filter((r) => r.url === '/api/pay')).toHaveLength(2);
  });

  it('pays on Firefox too: Adyen’s secured fields, the cardholder field in the shop’s page, and its challenge', async () => {
    const { result, cases } = await pay(shop.url, { provider: 'adyen', start: '/checkout/adyen', outcomes: ['3ds-passed'], engines: ['firefox'] });
    expect(result.error).toBeUndefined();
    expect(statuses(cases)).toEqual({ '3ds-passed [firefox/desktop]': 'passed' });
    expect(cases[0]!.cell).toBe('firefox/desktop');
    expect(cases[0]!.steps!.map((s) => s.title)).toContain('Complete the 3-D Secure challenge');
  });

  it('pays with Braintree’s hosted fields, Adyen’s holder names and the generic test mode: by amount, expiry, name and challenge', async () => {
    const braintree = await pay(shop.url, { provider: 'braintree', start: '/checkout/braintree', outcomes: ['insufficient-funds', 'expired-card', '3ds-failed'] });
    expect(braintree.result.error).toBeUndefined();
    expect(braintree.cases.map((c) => [c.name, c.status, c.actual])).toEqual([
      ['insufficient-funds', 'passed', 'Payment failed: Insufficient Funds (2001).'],
      ['expired-card', 'passed', 'Payment failed: Expired Card (2004).'],
      ['3ds-failed', 'passed', 'Payment failed: 3-D Secure authentication failed: the payment was declined.'],
    ]);
    const adyen = await pay(shop.url, { provider: 'adyen', start: '/checkout/adyen', outcomes: ['declined'] });
    expect(adyen.cases.map((c) => [c.name, c.status, c.actual])).toEqual([['declined', 'passed', 'Payment failed: Refused: DECLINED.']]);
    const testMode = await pay(shop.url, { provider: 'test-mode', start: '/checkout/test-mode', outcomes: ['3ds-passed'] });
    expect(statuses(testMode.cases)).toEqual({ '3ds-passed': 'passed' });
  });

  it('refuses a live card number before any browser sees it, and aborts every request a page makes with one', async () => {
    const leaked = '4012 8888 8888 1881';
    const refusal = liveCardRefusal(['•••• 1881']);
    // In the options: the run ends before a browser starts, with the field and the reason.
    const requestsBefore = shop.requests.length;
    const refused = await pay(shop.url, { provider: 'stripe', steps: [{ fill: { label: 'Email', value: 'buyer@example.test' } }, { fill: { label: 'Gift card', value: leaked } }] });
    expect([refused.result.status, refused.result.errorCode]).toEqual(['error', 'validation_error']);
    expect(refused.result.error).toBe(`options.steps.1.fill.value: ${refusal}`);
    expect(shop.requests.length).toBe(requestsBefore);
    // In the helper's options: refused before the page is touched (this page is no page at all).
    await expect(payWithCard({} as Page, { provider: 'stripe', outcome: 'success', amount: leaked })).rejects.toThrow(new LiveCardRefusedError(['•••• 1881'], 'payWithCard.amount'));
    // In the page's own requests: the shop's analytics send it in a body and a query; both are aborted, the case fails.
    const { result, cases } = await pay(shop.url, { provider: 'stripe', start: '/leaky/checkout/stripe', outcomes: ['success'] });
    expect(result.status).toBe('failed');
    expect(cases[0]!.error).toBe(refusal);
    expect(shop.requests.some((r) => r.url === '/leaky/checkout/stripe')).toBe(true);
    // Every request the fakes received, none with the number, however written.
    expect(shop.carrying(LEAKED_CARD)).toEqual([]);
    expect(provider.carrying(LEAKED_CARD)).toEqual([]);
    expect(shop.requests.filter((r) => r.url.startsWith('/api/analytics'))).toEqual([]);
  });

  it('says which option is wrong and why', () => {
    const problem = (options: Record<string, unknown>) => {
      try {
        parseTestInput(paymentInput, testOf('payment', options));
        return null;
      } catch (error) {
        if (error instanceof ValidationError) return `${error.field}: ${error.reason}`;
        throw error;
      }
    };
    const stripe = (more: Record<string, unknown>) => problem({ provider: 'stripe', ...more });
    expect(problem({})).toBe('options.provider: provider must be one of stripe, braintree, adyen, test-mode');
    expect(stripe({ engines: ['chromium', 'webkit'] })).toMatch(/^options\.engines\.1: payment tests do not run on webkit: they type into the providers' cross-origin card frames/);
    expect(stripe({ outcomes: ['success', 'success'] })).toBe('options.outcomes: lists the same outcome twice');
    expect(stripe({ outcomes: ['refund'] })).toMatch(/^options\.outcomes\.0: outcome must be one of success, declined/);
    expect(stripe({ expect: { success: { text: '(' } } })).toMatch(/^options\.expect\.success\.text: is not a regular expression: /);
    expect(stripe({ expect: { declined: { orderId: '#\\d+' } } })).toBe('options.expect.declined.orderId: a declined payment has no order number: orderId is for success and 3ds-passed');
    expect(stripe({ steps: [{ click: { name: 'Checkout' }, fill: { label: 'Email', value: 'a@b.test' } }] })).toMatch(/^options\.steps\.0: a step is one click or one fill/);
    expect(stripe({ steps: [{ click: { role: 'link' } }] })).toMatch(/^options\.steps\.0\.click: name what to click/);
    expect(stripe({ steps: [{ click: { text: 'Pay', name: 'Pay' } }] })).toBe('options.steps.0.click: click an element by { role, name } or by { text }, not both');
    expect(stripe({ amount: '20,00' })).toBe('options.amount: is an amount such as 20 or 20.00');
    expect(stripe({ start: '/pay?card=5555555555554444' })).toBe(`options.start: ${liveCardRefusal(['•••• 4444'])}`);
    // The catalogue's numbers may be written anywhere.
    expect(stripe({ steps: [{ fill: { label: 'Note', value: '4242 4242 4242 4242' } }] })).toBeNull();
  });

  it('validates the example suite, whose tests pay every outcome', async () => {
    const { tests } = validateSuite(await readSuiteFolder(SUITE_DIR));
    expect(tests.map((t) => [t.name, t.kind])).toEqual([
      ['Stripe checkout', 'payment'],
      ['Braintree checkout', 'payment'],
      ['Adyen checkout on Chromium and Firefox', 'payment'],
      ['Test-mode checkout on a phone', 'payment'],
      ['Stripe checkout in a spec', 'browser'],
    ]);
  });

  describe("the helper in a client's spec", () => {
    // A copy outside the repository, as a stored suite version is.
    let suiteDir = '';
    beforeAll(async () => {
      suiteDir = await mkdtemp(path.join(tmpdir(), 'fullstop-payments-suite-'));
      await cp(SUITE_DIR, suiteDir, { recursive: true });
    });
    afterAll(() => rm(suiteDir, { recursive: true, force: true }));

    it('imports payWithCard from @fullstop/engine/payments in the browser kind’s jail, each stage a step with its screenshot', async () => {
      const ctx = await makeContext({ workers: 1 });
      const result = await browserRunner.run(testOf('browser', { specs: ['specs/checkout.spec.ts'] }, { suiteDir }), target(shop.url), ctx);
      expect(result.error).toBeUndefined();
      if (result.summary.kind !== 'browser') throw new Error('wrong summary');
      expect(result.summary.cases.map((c) => [c.name, c.status]).sort()).toEqual([
        ['specs/checkout.spec.ts › a failed 3-D Secure challenge declines the payment', 'passed'],
        ['specs/checkout.spec.ts › a successful Stripe payment shows the order', 'passed'],
      ]);
      const steps = result.summary.cases.flatMap((c) => c.steps ?? []).map((s) => s.title);
      expect(steps).toContain('Fail the 3-D Secure challenge');
      expect(steps.filter((t) => t === 'Click the pay button')).toHaveLength(2);
      const json = await readFile(path.join(ctx.runDir, 'browser/results.json'), 'utf8');
      expect(json.match(/"name": "After: [^"]+"/g)).toHaveLength(5);
    });
  });
});
