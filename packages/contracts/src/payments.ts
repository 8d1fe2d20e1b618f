// Payments with sandbox cards (issue 43): the providers' published test cards by outcome, the origins each provider's
// embedded fields load from, and the rule that keeps a live card out of every test. The engine types only numbers
// from this catalogue; the server opens a provider's origins for a client when an operator switches its preset on;
// the console and the docs list the same words.
import { z } from 'zod';

export const PAYMENT_PROVIDERS = ['stripe', 'braintree', 'adyen', 'test-mode'] as const;
export const paymentProvider = z.enum(PAYMENT_PROVIDERS, { error: `provider must be one of ${PAYMENT_PROVIDERS.join(', ')}` });
export type PaymentProvider = z.infer<typeof paymentProvider>;

/** What a card is for: each outcome is one case of a `payment` test. */
export const PAYMENT_OUTCOMES = ['success', 'declined', 'insufficient-funds', 'expired-card', 'incorrect-cvc', '3ds-passed', '3ds-failed', 'processing-error'] as const;
export const paymentOutcome = z.enum(PAYMENT_OUTCOMES, { error: `outcome must be one of ${PAYMENT_OUTCOMES.join(', ')}` });
export type PaymentOutcome = z.infer<typeof paymentOutcome>;

/** An outcome in the report's words, as a list says them ("fails on insufficient funds and a wrong CVC"). */
export const PAYMENT_OUTCOME_WORDS: Readonly<Record<PaymentOutcome, string>> = {
  success: 'a successful payment',
  declined: 'a generic decline',
  'insufficient-funds': 'insufficient funds',
  'expired-card': 'an expired card',
  'incorrect-cvc': 'a wrong CVC',
  '3ds-passed': 'a passed 3-D Secure challenge',
  '3ds-failed': 'a failed 3-D Secure challenge',
  'processing-error': 'a processing error',
};

/** The outcomes that go through a 3-D Secure challenge. */
export const THREE_DS_OUTCOMES: readonly PaymentOutcome[] = ['3ds-passed', '3ds-failed'];

export interface SandboxCard {
  /** The card number, digits only. */
  number: string;
  /** `future`: any date after today (the helper types next year's December); `past`: last year's January; else `MM/YY` as published. */
  expiry: 'future' | 'past' | `${number}/${number}`;
  /** The CVC to type (a published one, or one the provider documents as a mismatch). */
  cvc: string;
  /** The cardholder name the provider reads the outcome from (Adyen's result codes), when it does. */
  holderName?: string;
  /** The amount, in the currency's major unit, the provider reads the outcome from (Braintree's test amounts), when it does. */
  amount?: string;
  /** How the 3-D Secure challenge is answered: `pass` completes it, `fail` fails it; unset: no challenge is expected. */
  challenge?: 'pass' | 'fail';
  /** What the provider's documentation says of this card, in a sentence. */
  note: string;
}

export interface PaymentProviderFacts {
  label: string;
  /** The provider's page of test cards. */
  docsUrl: string;
  /**
   * The origins a checkout using this provider's embedded fields loads from and calls in test mode (scripts, field
   * frames, the 3-D Secure challenge, the client-side API). The preset opens exactly these for one client's tests.
   */
  origins: readonly string[];
  /**
   * The card fields as the provider renders them, in whichever frame they live: each a list of CSS selectors tried in
   * order (the provider's own input names and attributes, which its cross-origin iframes keep stable).
   */
  fields: { number: readonly string[]; expiry: readonly string[]; cvc: readonly string[]; holderName?: readonly string[] };
  /** The answer the provider's test 3-D Secure challenge takes to pass, and the button that submits it. */
  challenge: { frame: readonly string[]; input?: readonly string[]; pass: string; fail: string; submit: readonly string[] };
  cards: Readonly<Record<PaymentOutcome, SandboxCard>>;
}

const GENERIC_FIELDS: PaymentProviderFacts['fields'] = {
  number: ['input[autocomplete="cc-number"]', 'input[name="cardnumber"]', 'input[name="card-number"]', 'input[name="number"]'],
  expiry: ['input[autocomplete="cc-exp"]', 'input[name="exp-date"]', 'input[name="expiry"]'],
  cvc: ['input[autocomplete="cc-csc"]', 'input[name="cvc"]', 'input[name="cvv"]'],
  holderName: ['input[autocomplete="cc-name"]', 'input[name="holderName"]', 'input[name="cardholder"]'],
};

/**
 * The catalogue. Numbers and rules as the providers publish them for their test modes (each provider's `docsUrl`);
 * the fakes under packages/engine/test/fixtures/payments render the same field names (docs/payments.md says which
 * parts were verified only against the fakes).
 */
export const PAYMENT_CATALOGUE: Readonly<Record<PaymentProvider, PaymentProviderFacts>> = {
  stripe: {
    label: 'Stripe test mode',
    docsUrl: 'https://docs.stripe.com/testing',
    origins: ['https://js.stripe.com', 'https://api.stripe.com', 'https://m.stripe.network', 'https://hooks.stripe.com', 'https://r.stripe.com'],
    fields: {
      number: ['input[name="cardnumber"]', 'input[name="number"]', 'input[autocomplete="cc-number"]'],
      expiry: ['input[name="exp-date"]', 'input[name="expiry"]', 'input[autocomplete="cc-exp"]'],
      cvc: ['input[name="cvc"]', 'input[autocomplete="cc-csc"]'],
    },
    challenge: { frame: ['iframe[name^="__privateStripeFrame"][src*="three-ds"]', 'iframe[name="stripe-challenge-frame"]', 'iframe[src*="three-ds"]', 'iframe[src*="3ds"]'], pass: '#test-source-authorize-3ds', fail: '#test-source-fail-3ds', submit: [] },
    cards: {
      success: { number: '4242424242424242', expiry: 'future', cvc: '123', note: 'Visa: the payment succeeds.' },
      declined: { number: '4000000000000002', expiry: 'future', cvc: '123', note: 'Declined with card_declined (generic_decline).' },
      'insufficient-funds': { number: '4000000000009995', expiry: 'future', cvc: '123', note: 'Declined with card_declined (insufficient_funds).' },
      'expired-card': { number: '4000000000000069', expiry: 'future', cvc: '123', note: 'Declined with expired_card.' },
      'incorrect-cvc': { number: '4000000000000127', expiry: 'future', cvc: '123', note: 'Declined with incorrect_cvc.' },
      '3ds-passed': { number: '4000002760003184', expiry: 'future', cvc: '123', challenge: 'pass', note: 'Always asks for 3-D Secure; completing the challenge lets the payment succeed.' },
      '3ds-failed': { number: '4000002760003184', expiry: 'future', cvc: '123', challenge: 'fail', note: 'Always asks for 3-D Secure; failing the challenge fails the payment.' },
      'processing-error': { number: '4000000000000119', expiry: 'future', cvc: '123', note: 'Declined with processing_error.' },
    },
  },
  braintree: {
    label: 'Braintree sandbox',
    docsUrl: 'https://developer.paypal.com/braintree/docs/reference/general/testing',
    origins: [
      'https://js.braintreegateway.com',
      'https://assets.braintreegateway.com',
      'https://api.sandbox.braintreegateway.com',
      'https://payments.sandbox.braintree-api.com',
      'https://client-analytics.sandbox.braintreegateway.com',
      'https://songbird.cardinalcommerce.com',
      'https://centinelapistag.cardinalcommerce.com',
    ],
    fields: {
      number: ['input[name="credit-card-number"]', 'input#credit-card-number'],
      expiry: ['input[name="expiration"]', 'input#expiration'],
      cvc: ['input[name="cvv"]', 'input#cvv'],
      holderName: ['input[name="cardholder-name"]', 'input#cardholder-name'],
    },
    challenge: { frame: ['iframe[id^="Cardinal-CCA-IFrame"]', 'iframe[name="cardinal-challenge"]', 'iframe[src*="challenge"]'], input: ['input[name="challengeDataEntry"]', 'input[type="text"]'], pass: '1234', fail: '0000', submit: ['input[type="submit"]', 'button[type="submit"]'] },
    cards: {
      success: { number: '4111111111111111', expiry: 'future', cvc: '123', note: 'Visa: the transaction is authorized.' },
      declined: { number: '4000111111111115', expiry: 'future', cvc: '123', note: 'Processor declined (2000, Do Not Honor).' },
      'insufficient-funds': { number: '4111111111111111', expiry: 'future', cvc: '123', amount: '2001.00', note: 'Any card, amount 2001.00: processor declined, insufficient funds.' },
      'expired-card': { number: '4111111111111111', expiry: 'past', cvc: '123', note: 'An expiration date in the past: the card is refused as expired.' },
      'incorrect-cvc': { number: '4111111111111111', expiry: 'future', cvc: '200', note: 'CVV 200: the CVV does not match (N).' },
      '3ds-passed': { number: '4000000000001091', expiry: 'future', cvc: '123', challenge: 'pass', note: '3-D Secure 2 with a challenge; the right answer authenticates.' },
      '3ds-failed': { number: '4000000000001109', expiry: 'future', cvc: '123', challenge: 'fail', note: '3-D Secure 2 with a challenge that fails authentication.' },
      'processing-error': { number: '4111111111111111', expiry: 'future', cvc: '123', amount: '3000.00', note: 'Any card, amount 3000.00: processor network unavailable.' },
    },
  },
  adyen: {
    label: 'Adyen test',
    docsUrl: 'https://docs.adyen.com/development-resources/test-cards/test-card-numbers',
    origins: ['https://checkoutshopper-test.adyen.com', 'https://checkoutshopper-test.cdn.adyen.com'],
    fields: {
      number: ['input[data-fieldtype="encryptedCardNumber"]', 'input[aria-label*="card number" i]'],
      expiry: ['input[data-fieldtype="encryptedExpiryDate"]', 'input[aria-label*="expiry" i]'],
      cvc: ['input[data-fieldtype="encryptedSecurityCode"]', 'input[aria-label*="security code" i]'],
      holderName: ['input[name="holderName"]', 'input.adyen-checkout__card__holderName__input'],
    },
    challenge: { frame: ['iframe[name="threeDSIframe"]', 'iframe.adyen-checkout__iframe--threeDSIframe'], input: ['input[name="answer"]', 'input[type="password"]'], pass: 'password', fail: 'wrong', submit: ['input[type="submit"]', 'button[type="submit"]'] },
    cards: {
      success: { number: '4111111145551142', expiry: '03/30', cvc: '737', note: 'Visa: authorised.' },
      declined: { number: '4111111145551142', expiry: '03/30', cvc: '737', holderName: 'DECLINED', note: 'Holder name DECLINED: refused.' },
      'insufficient-funds': { number: '4111111145551142', expiry: '03/30', cvc: '737', holderName: 'NOT_ENOUGH_BALANCE', note: 'Holder name NOT_ENOUGH_BALANCE: refused, not enough balance.' },
      'expired-card': { number: '4111111145551142', expiry: '03/30', cvc: '737', holderName: 'CARD_EXPIRED', note: 'Holder name CARD_EXPIRED: refused, expired card.' },
      'incorrect-cvc': { number: '4111111145551142', expiry: '03/30', cvc: '111', note: 'A CVC other than 737: refused (DECLINED).' },
      '3ds-passed': { number: '4917610000000000', expiry: '03/30', cvc: '737', challenge: 'pass', note: '3-D Secure 2 with a challenge; the password "password" authenticates.' },
      '3ds-failed': { number: '4917610000000000', expiry: '03/30', cvc: '737', challenge: 'fail', note: '3-D Secure 2 with a challenge; any other answer fails it.' },
      'processing-error': { number: '4111111145551142', expiry: '03/30', cvc: '737', holderName: 'ERROR', note: 'Holder name ERROR: an error from the processor.' },
    },
  },
  'test-mode': {
    label: 'Another provider’s test mode',
    docsUrl: 'https://docs.stripe.com/testing#cards',
    origins: [],
    fields: GENERIC_FIELDS,
    challenge: { frame: ['iframe[src*="challenge"]', 'iframe[src*="3ds"]'], input: ['input[autocomplete="one-time-code"]', 'input[type="text"]', 'input[type="password"]'], pass: '1234', fail: '0000', submit: ['button[type="submit"]', 'input[type="submit"]'] },
    cards: {
      success: { number: '4242424242424242', expiry: 'future', cvc: '123', note: 'The most widely published test Visa number.' },
      declined: { number: '4000000000000002', expiry: 'future', cvc: '123', note: 'A widely published generic-decline test number.' },
      'insufficient-funds': { number: '4000000000009995', expiry: 'future', cvc: '123', note: 'A widely published insufficient-funds test number.' },
      'expired-card': { number: '4242424242424242', expiry: 'past', cvc: '123', note: 'A test number with a past expiry date.' },
      'incorrect-cvc': { number: '4000000000000127', expiry: 'future', cvc: '123', note: 'A widely published wrong-CVC test number.' },
      '3ds-passed': { number: '4000000000003220', expiry: 'future', cvc: '123', challenge: 'pass', note: 'A test number that asks for 3-D Secure; completing it succeeds.' },
      '3ds-failed': { number: '4000000000003220', expiry: 'future', cvc: '123', challenge: 'fail', note: 'A test number that asks for 3-D Secure; failing it fails the payment.' },
      'processing-error': { number: '4000000000000119', expiry: 'future', cvc: '123', note: 'A widely published processing-error test number.' },
    },
  },
};

/**
 * The expiry a card is typed with, `MM/YY`: `future` is December of next year, `past` January of last year (in the
 * UTC year of `today`), a published date as it is.
 */
export function cardExpiry(card: Pick<SandboxCard, 'expiry'>, today: Date = new Date()): string {
  const yy = (year: number) => String(year % 100).padStart(2, '0');
  if (card.expiry === 'future') return `12/${yy(today.getUTCFullYear() + 1)}`;
  if (card.expiry === 'past') return `01/${yy(today.getUTCFullYear() - 1)}`;
  return card.expiry;
}

/** Whether a string of digits passes the Luhn check every card number carries. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Every number the catalogue holds: the only card numbers a test may type. */
export const SANDBOX_CARD_NUMBERS: ReadonlySet<string> = new Set(PAYMENT_PROVIDERS.flatMap((p) => PAYMENT_OUTCOMES.map((o) => PAYMENT_CATALOGUE[p].cards[o].number)));

/**
 * Runs of digits grouped by single spaces or dashes, as card numbers are typed ("4012 8888 8888 1881"), not part of
 * a word or a decimal fraction: an identifier's digits ("a716-4466…") and Math.random()'s ("0.4012…") are not cards.
 */
const DIGIT_RUN = /(?<![\w.])\d+(?:[ -]\d+)*(?![\w]|\.\d)/g;

/**
 * The first digits of the card networks a checkout takes (Visa 4, Mastercard 2 and 5, American Express and Diners 3,
 * Discover, UnionPay and Maestro 6). A number starting otherwise is not taken for a card: a timestamp in milliseconds
 * (13 digits, starting with 1) is Luhn-valid one time in ten and would otherwise stop a page's requests.
 */
const CARD_FIRST_DIGIT = /^[2-6]/;

/**
 * The card numbers a run may hold: each span of its whole groups with 13 to 19 digits, so that a number followed by
 * an expiry or a CVC ("4012 8888 8888 1881 12 27") is still found; spans overlapping a catalogue number are not
 * cards of their own ("4242 4242 4242 4242 123" holds the test card only).
 */
function* cardCandidates(run: string): Generator<string> {
  const groups = run.split(/[ -]/);
  /** Each span of whole groups, [start, end], with 13 to 19 digits and a card network's first digit (the catalogue's have one). */
  function* spans(): Generator<[number, number, string]> {
    for (let start = 0; start < groups.length; start++) {
      if (!CARD_FIRST_DIGIT.test(groups[start]!)) continue;
      let digits = '';
      for (let end = start; end < groups.length && digits.length < 19; end++) {
        digits += groups[end];
        if (digits.length >= 13 && digits.length <= 19) yield [start, end, digits];
      }
    }
  }
  // The groups of a catalogue number: one group per entry, so a long run costs no more than its length.
  const sandbox = new Uint8Array(groups.length);
  for (const [start, end, digits] of spans()) if (SANDBOX_CARD_NUMBERS.has(digits)) sandbox.fill(1, start, end + 1);
  for (const [start, end, digits] of spans()) if (!sandbox.subarray(start, end + 1).includes(1)) yield digits;
}

/**
 * The card numbers in `text` that are Luhn-valid and not in the catalogue: what could be a live card. Empty for
 * a text with none. Digits only in the answer, each once, masked to their last four (the answer goes into errors).
 */
export function foreignCardNumbers(text: string): string[] {
  const found = new Set<string>();
  for (const [run] of text.matchAll(DIGIT_RUN)) {
    // Most runs are short numbers: shorter than a card even with its separators.
    if (run.length < 13) continue;
    for (const digits of cardCandidates(run)) if (luhnValid(digits)) found.add(maskCardNumber(digits));
  }
  return [...found];
}

/** A card number as errors and reports may show it: its last four digits. */
export function maskCardNumber(digits: string): string {
  return `•••• ${digits.slice(-4)}`;
}

/** The message a refused number gets, wherever it was refused. */
export function liveCardRefusal(masked: readonly string[]): string {
  return `refused: ${masked.join(', ')} ${masked.length === 1 ? 'is a card number' : 'are card numbers'} not in the sandbox catalogue; a payment test types only the providers' published test cards, so a live card can never be charged`;
}
