/**
 * Pays on a checkout page with a provider's sandbox card (issue 43): finds each card field in whichever frame holds
 * it (the providers' fields are cross-origin iframes), types the catalogue's card for the outcome, submits, and
 * answers the 3-D Secure challenge as the outcome asks. The payment kind uses it; so can a client's spec:
 *
 *   import { payWithCard } from '@fullstop/engine/payments';
 *   await payWithCard(page, { provider: 'stripe', outcome: '3ds-passed' });
 *   await expect(page.getByText(/Thank you/)).toBeVisible();
 *
 * Inside @playwright/test each stage is a `test.step` with a screenshot attached; elsewhere a plain call. Only the
 * catalogue's numbers are typed: an option holding any other Luhn-valid number is refused before the browser sees
 * it, and every request of the page's context that carries one is aborted (card-guard.ts).
 *
 * Loaded by Playwright's own TypeScript loader in a spec's process (as CommonJS): no `import.meta`, no top-level
 * await, no import of the engine beyond this folder's card-guard.ts.
 */
import type { Frame, Locator, Page } from 'playwright-core';
import {
  cardExpiry,
  maskCardNumber,
  PAYMENT_CATALOGUE,
  PAYMENT_OUTCOME_WORDS,
  type PaymentOutcome,
  type PaymentProvider,
  type PaymentProviderFacts,
  paymentOutcome,
  paymentProvider,
  type SandboxCard,
} from '@fullstop/contracts/payments';
import { guardCardRequests, refuseForeignNumbers } from './card-guard.ts';

export { type CardGuard, guardCardRequests, LiveCardRefusedError } from './card-guard.ts';

/** How long a field, the pay button or the 3-D Secure challenge may take to appear. */
export const PAYMENT_FIELD_TIMEOUT_MS = 15_000;
/** How often the frames are looked through while waiting for one. */
const POLL_MS = 100;
/** How long an element just counted may take to be handed over (a loaded machine's Firefox took 1.1 s). */
const LOOK_TIMEOUT_MS = 5_000;
/** The name typed in a cardholder field when the card names none (one that no provider reads an outcome from). */
export const DEFAULT_HOLDER_NAME = 'Jane Tester';
/** Where a checkout takes the amount, when it lets the buyer type one (a top-up, a donation). */
export const AMOUNT_FIELDS: readonly string[] = ['input[name="amount"]', 'input#amount', 'input[autocomplete="transaction-amount"]'];
/** The pay button, when the test names none: a button named so, else the submit button of a form holding the card frames, else of any form. */
export const PAY_BUTTON_NAME = /^\s*(pay|place order|submit|complete (order|purchase)|buy now|confirm payment)\b/i;
const PAY_BUTTONS: readonly string[] = ['form:has(iframe) button[type="submit"]', 'form:has(iframe) input[type="submit"]', 'form button[type="submit"]', 'form input[type="submit"]'];

export interface PayWithCardOptions {
  provider: PaymentProvider;
  outcome: PaymentOutcome;
  /** The amount typed in the page's amount field for a card that names none (`20.00`); a card that names one (Braintree's) types its own. */
  amount?: string;
  /** A CSS selector of the pay button in the page; unset: a button named Pay, Place order or Submit, else the form's submit button. */
  submit?: string;
  /** 2: the pay button is clicked twice at once, as an impatient buyer does (the payment kind's `noDoubleCharge`). */
  clicks?: 1 | 2;
  /** How long each field, the button and the challenge may take to appear; PAYMENT_FIELD_TIMEOUT_MS unless set. */
  timeoutMs?: number;
  /** A screenshot after each stage (attached to its step inside @playwright/test); true unless set. */
  screenshots?: boolean;
  /** Told of each stage as it ends, failed ones too. */
  onStage?: (stage: PaymentStage) => void;
}

export interface PaymentStage {
  title: string;
  durationMs: number;
  error?: string;
  /** PNG of the page after the stage, when screenshots are on. */
  screenshot?: Buffer;
}

export interface PaymentAttempt {
  provider: PaymentProvider;
  outcome: PaymentOutcome;
  /** The card typed, masked to its last four digits. */
  card: string;
  expiry: string;
  /** How the 3-D Secure challenge was answered; null when the card asks for none. */
  challenge: 'passed' | 'failed' | null;
  stages: PaymentStage[];
}

/** What a stage of @playwright/test is given: its `test`, when this runs inside one of its tests. */
interface PlaywrightTest {
  step<T>(title: string, body: () => Promise<T>): Promise<T>;
  info(): { attach(name: string, options: { body: Buffer; contentType: string }): Promise<void> };
}

/**
 * @playwright/test's `test`, inside a test of a Playwright worker (which sets TEST_WORKER_INDEX); null elsewhere, the
 * payment kind's runner included. Imported from where this file is, which finds the copy the spec's runner loaded
 * (its ES module entry shares the CommonJS one's state).
 */
async function playwrightTest(): Promise<PlaywrightTest | null> {
  if (!process.env.TEST_WORKER_INDEX) return null;
  try {
    const loaded = (await import('@playwright/test')) as { test: PlaywrightTest };
    loaded.test.info();
    return loaded.test;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A frame and every frame inside it. */
function withDescendants(frame: Frame): Frame[] {
  return [frame, ...frame.childFrames().flatMap(withDescendants)];
}

/**
 * The first visible element any of `selectors` matches in any of `frames`, in order of the frames; null when none
 * does yet. One question per frame (the selectors as one list): a checkout has a frame per field, and each question
 * is a round trip to the browser.
 */
async function firstVisible(frames: readonly Frame[], selectors: readonly string[]): Promise<Locator | null> {
  for (const frame of frames) {
    const found = frame.locator(selectors.join(', ')).filter({ visible: true }).first();
    // A frame that went away while it was looked through holds nothing.
    if ((await found.count().catch(() => 0)) > 0) return found;
  }
  return null;
}

/** Waits until `find` finds something, or throws `missing()` at the deadline. */
async function waitFor<T>(find: () => Promise<T | null>, deadline: number, missing: () => string): Promise<T> {
  for (;;) {
    const found = await find();
    if (found) return found;
    if (Date.now() >= deadline) throw new Error(missing());
    await sleep(POLL_MS);
  }
}

/** A field of the card in the page or any of its frames, cross-origin ones included. */
function findField(page: Page, selectors: readonly string[], what: string, facts: PaymentProviderFacts, timeoutMs: number): Promise<Locator> {
  return waitFor(
    () => firstVisible(page.frames(), selectors),
    Date.now() + timeoutMs,
    () =>
      `the ${what} field of ${facts.label} was not found in the page or any of its frames within ${seconds(timeoutMs)} (selectors tried: ${selectors.join(', ')}). ` +
      `Check that the payment form is on the page and that the provider's origins are open for this client (docs/payments.md).`,
  );
}

/**
 * The frame of the 3-D Secure challenge as it is now, wherever the page put it (a provider nests it in its own
 * frames); null while there is none. Asked again on every look: a frame that navigates to another origin may be a
 * new frame (Firefox's).
 */
async function challengeFrame(page: Page, facts: PaymentProviderFacts): Promise<Frame | null> {
  const selector = facts.challenge.frame.join(', ');
  for (const frame of page.frames()) {
    const found = frame.locator(selector).first();
    // Counted first: asking a frame for an element it does not have would wait for one.
    if ((await found.count().catch(() => 0)) === 0) continue;
    const element = await found.elementHandle({ timeout: LOOK_TIMEOUT_MS }).catch(() => null);
    const inner = await element?.contentFrame().catch(() => null);
    if (inner) return inner;
  }
  return null;
}

/** Passes or fails the challenge: its answer typed and submitted, or its pass or fail button clicked (Stripe's test page). */
async function answerChallenge(page: Page, facts: PaymentProviderFacts, pass: boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const { challenge } = facts;
  let appeared = false;
  /** The first visible element of `selectors` in the challenge's frame or a frame inside it. */
  const inChallenge = (selectors: readonly string[]) => async () => {
    const frame = await challengeFrame(page, facts);
    if (!frame) return null;
    appeared = true;
    return firstVisible(withDescendants(frame), selectors);
  };
  const missing = (what: string, selectors: readonly string[]) => () =>
    appeared
      ? `the 3-D Secure challenge of ${facts.label} has no ${what} (selectors tried: ${selectors.join(', ')})`
      : `the 3-D Secure challenge of ${facts.label} did not appear within ${seconds(timeoutMs)} (frames tried: ${challenge.frame.join(', ')})`;
  const answer = pass ? challenge.pass : challenge.fail;
  if (!challenge.input) {
    const button = await waitFor(inChallenge([answer]), deadline, missing(pass ? 'button that completes it' : 'button that fails it', [answer]));
    await button.click();
    return;
  }
  const input = await waitFor(inChallenge(challenge.input), deadline, missing('answer field', challenge.input));
  await input.fill(answer);
  const submit = await waitFor(inChallenge(challenge.submit), deadline, missing('submit button', challenge.submit));
  await submit.click();
}

/** The pay button: the one the test names, else the first PAY_BUTTON_NAME or PAY_BUTTONS finds. */
function payButton(page: Page, selector: string | undefined, timeoutMs: number): Promise<Locator> {
  const find = async () => {
    if (selector) return firstVisible([page.mainFrame()], [selector]);
    const named = page.getByRole('button', { name: PAY_BUTTON_NAME }).first();
    if (await named.isVisible().catch(() => false)) return named;
    return firstVisible([page.mainFrame()], PAY_BUTTONS);
  };
  const tried = selector ?? `a button named ${PAY_BUTTON_NAME.source}, ${PAY_BUTTONS.join(', ')}`;
  return waitFor(find, Date.now() + timeoutMs, () => `the pay button was not found in the page within ${seconds(timeoutMs)} (tried ${tried}); name it with the submit option`);
}

/** How a card reads in a step's title: "•••• 4242, 12/27, CVC 123". */
function cardWords(card: SandboxCard, expiry: string): string {
  return [maskCardNumber(card.number), expiry, `CVC ${card.cvc}`, card.holderName ? `name ${card.holderName}` : null, card.amount ? `amount ${card.amount}` : null].filter(Boolean).join(', ');
}

/**
 * Pays on `page` with the sandbox card of `outcome` for `provider`. Resolves once the payment is submitted and, for a
 * 3-D Secure outcome, its challenge answered; what the page shows after is for the caller to check. Throws when a
 * field, the button or the challenge is not found, naming what was looked for, and a LiveCardRefusedError when an
 * option holds a number that could be a live card (before anything is typed) or a request of the page carried one.
 */
export async function payWithCard(page: Page, options: PayWithCardOptions): Promise<PaymentAttempt> {
  const provider = paymentProvider.parse(options.provider);
  const outcome = paymentOutcome.parse(options.outcome);
  refuseForeignNumbers({ amount: options.amount, submit: options.submit }, 'payWithCard');
  const facts = PAYMENT_CATALOGUE[provider];
  const card = facts.cards[outcome];
  const expiry = cardExpiry(card);
  const timeoutMs = options.timeoutMs ?? PAYMENT_FIELD_TIMEOUT_MS;
  const screenshots = options.screenshots ?? true;
  const guard = await guardCardRequests(page.context());
  const test = await playwrightTest();
  const attempt: PaymentAttempt = { provider, outcome, card: maskCardNumber(card.number), expiry, challenge: null, stages: [] };

  const stage = async (title: string, body: () => Promise<void>) => {
    const run = async () => {
      const started = performance.now();
      let error: string | undefined;
      try {
        await body();
        guard.check();
      } catch (thrown) {
        error = errorText(thrown);
        throw thrown;
      } finally {
        const screenshot = screenshots ? await page.screenshot({ timeout: 5_000 }).catch(() => undefined) : undefined;
        const done: PaymentStage = { title, durationMs: Math.round(performance.now() - started), ...(error ? { error } : {}), ...(screenshot ? { screenshot } : {}) };
        attempt.stages.push(done);
        options.onStage?.(done);
        if (test && screenshot) await test.info().attach(`After: ${title}`, { body: screenshot, contentType: 'image/png' }).catch(() => undefined);
      }
    };
    await (test ? test.step(title, run) : run());
  };

  await stage(`Fill in the ${facts.label} card fields for ${PAYMENT_OUTCOME_WORDS[outcome]} (${cardWords(card, expiry)})`, async () => {
    const amount = card.amount ?? options.amount;
    if (amount !== undefined) {
      const field = await waitFor(
        async () => (await firstVisible([page.mainFrame()], AMOUNT_FIELDS)) ?? (await firstVisible([page.mainFrame()], ['label:has-text("amount") input'])),
        Date.now() + timeoutMs,
        () =>
          card.amount
            ? `the ${facts.label} card for ${PAYMENT_OUTCOME_WORDS[outcome]} needs the amount ${card.amount}, and the page has no amount field (tried ${AMOUNT_FIELDS.join(', ')}, an input labelled Amount)`
            : `the page has no amount field to type ${amount} in (tried ${AMOUNT_FIELDS.join(', ')}, an input labelled Amount)`,
      );
      await field.fill(amount);
    }
    await (await findField(page, facts.fields.number, 'card number', facts, timeoutMs)).fill(card.number);
    await (await findField(page, facts.fields.expiry, 'expiry date', facts, timeoutMs)).fill(expiry);
    await (await findField(page, facts.fields.cvc, 'security code', facts, timeoutMs)).fill(card.cvc);
    const holderSelectors = facts.fields.holderName ?? [];
    if (card.holderName) {
      await (await findField(page, holderSelectors, 'cardholder name', facts, timeoutMs)).fill(card.holderName);
    } else if (holderSelectors.length > 0) {
      // The fields are in: a holder field the checkout has is there by now too.
      await (await firstVisible(page.frames(), holderSelectors))?.fill(DEFAULT_HOLDER_NAME);
    }
  });

  await stage(options.clicks === 2 ? 'Click the pay button twice' : 'Click the pay button', async () => {
    const button = await payButton(page, options.submit, timeoutMs);
    await button.click(options.clicks === 2 ? { clickCount: 2 } : {});
  });

  if (card.challenge) {
    const pass = card.challenge === 'pass';
    await stage(pass ? 'Complete the 3-D Secure challenge' : 'Fail the 3-D Secure challenge', async () => {
      await answerChallenge(page, facts, pass, timeoutMs);
      attempt.challenge = pass ? 'passed' : 'failed';
    });
  }
  return attempt;
}
