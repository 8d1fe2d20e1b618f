import { PAYMENT_OUTCOMES, type PaymentOutcome, liveCardRefusal, paymentOutcome, paymentProvider } from '@fullstop/contracts';
import { z } from 'zod';
import { checkCellBound, matrixOptions } from '../../lib/cell-matrix.ts';
import { testInput } from '../../lib/options.ts';
import type { BrowserEngine } from '../browser/matrix.ts';
import { foreignNumbersIn } from './card-guard.ts';

/**
 * The engines a payment test pays on: those Playwright drives, which reaches into the providers' cross-origin card
 * frames (pay-with-card.ts). WebKit is driven here over WebDriver for page checks only (decision 0079).
 */
export const PAYMENT_ENGINES = ['chromium', 'firefox'] as const satisfies readonly BrowserEngine[];

export const PAGE_LOAD_TIMEOUT_MS = 30_000;
/** How long the page may take to show what an outcome must show, once the payment is submitted (and its challenge answered). */
export const DEFAULT_OUTCOME_TIMEOUT_MS = 20_000;
/** How long a successful page is watched, once it shows its order, for a second one (the pay button clicked twice). */
export const DOUBLE_CHARGE_WATCH_MS = 1_500;
/** Steps to reach the payment form: a short path, not a script. */
export const MAX_STEPS = 10;

/** A successful payment, in the words shops use; an order number after `#`. Case-insensitive regular expressions. */
export const DEFAULT_SUCCESS_TEXT = 'thank you|order (?:is )?confirmed|payment (?:was )?successful|payment (?:is )?complete';
export const DEFAULT_ORDER_ID = '#[A-Z0-9][A-Z0-9-]{2,}';
/** A refused payment, in the words shops and providers use. */
export const DEFAULT_DECLINE_TEXT = "declined|insufficient|expired|incorrect|invalid|failed|unsuccessful|could ?not|couldn['’]t|refused|not authori[sz]ed|unable|error";

/** The outcomes whose payment goes through: the page must show the success text (and an order number). */
export const PAID_OUTCOMES: readonly PaymentOutcome[] = ['success', '3ds-passed'];

const regex = z
  .string()
  .min(1, { error: 'is an empty regular expression' })
  .max(500)
  .superRefine((source, ctx) => {
    try {
      new RegExp(source, 'i');
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `is not a regular expression: ${(error as Error).message}` });
    }
  });

/** What the page must show after an outcome: text (a case-insensitive regular expression) and, for a paid one, an order number. */
const outcomeExpectation = z.object({ text: regex.optional(), orderId: regex.optional() }).strict();

/** The roles a step clicks by (what a checkout's way to its payment form is made of). */
export const CLICK_ROLES = ['button', 'link', 'tab', 'menuitem', 'checkbox', 'radio', 'option'] as const;

const stepText = z.string().trim().min(1, { error: 'is empty' }).max(200);

/** A click on an element named by its role and accessible name (a button or a link when no role is given), or by its text. */
const clickStep = z
  .object({ role: z.enum(CLICK_ROLES, { error: `role must be one of ${CLICK_ROLES.join(', ')}` }).optional(), name: stepText.optional(), text: stepText.optional() })
  .strict()
  .superRefine((click, ctx) => {
    if (click.text !== undefined && (click.name !== undefined || click.role !== undefined)) ctx.addIssue({ code: 'custom', message: 'click an element by { role, name } or by { text }, not both' });
    else if (click.text === undefined && click.name === undefined) ctx.addIssue({ code: 'custom', message: 'name what to click: { "name": "Checkout" } (a button or link), { "role": "tab", "name": "Card" } or { "text": "Pay by card" }' });
  });

/** A field found by its label, filled with a value: data typed as it is, never code. */
const fillStep = z.object({ label: stepText, value: z.string().max(500) }).strict();

const step = z
  .object({ click: clickStep.optional(), fill: fillStep.optional() })
  .strict()
  .superRefine((s, ctx) => {
    if ((s.click === undefined) === (s.fill === undefined)) ctx.addIssue({ code: 'custom', message: 'a step is one click or one fill: { "click": { … } } or { "fill": { "label": …, "value": … } }' });
  });
export type PaymentStep = z.output<typeof step>;

const outcomes = z
  .array(paymentOutcome)
  .min(1, { error: `list at least one outcome: ${PAYMENT_OUTCOMES.join(', ')}` })
  .refine((list) => new Set(list).size === list.length, { error: 'lists the same outcome twice' });

const expectations = z
  .object({
    ...(Object.fromEntries(PAYMENT_OUTCOMES.map((o) => [o, outcomeExpectation.optional()])) as Record<PaymentOutcome, z.ZodOptional<typeof outcomeExpectation>>),
    /** A successful payment's page, its pay button clicked twice at once, must show one order. */
    noDoubleCharge: z.boolean().default(true),
  })
  .strict();

export const paymentInput = testInput(
  {
    /** The page the test starts on (a path or a URL of the target): the checkout, or the way to it with `steps`. */
    start: z.string().trim().min(1).default('/'),
    /** Clicks and fills that reach the payment form from `start`, each case anew. */
    steps: z.array(step).max(MAX_STEPS, { error: `at most ${MAX_STEPS} steps: start nearer the payment form` }).default([]),
    provider: paymentProvider,
    /** The outcomes paid, each a case with the catalogue's card for it; all eight unless listed. */
    outcomes: outcomes.default([...PAYMENT_OUTCOMES]),
    /** What the page must show after each outcome; the defaults unless set (DEFAULT_SUCCESS_TEXT, DEFAULT_DECLINE_TEXT). */
    expect: expectations.default({ noDoubleCharge: true }),
    /** The amount typed in the page's amount field for a card that names none (Braintree's test amounts name theirs). */
    amount: z
      .string()
      .regex(/^\d{1,7}(\.\d{1,2})?$/, { error: 'is an amount such as 20 or 20.00' })
      .optional(),
    /** A CSS selector of the pay button; unset: a button named Pay, Place order or Submit, else the form's submit button. */
    submit: z.string().trim().min(1).max(500).optional(),
    outcomeTimeoutMs: z.number().int().min(1000).max(120_000).default(DEFAULT_OUTCOME_TIMEOUT_MS),
    pageTimeoutMs: z.number().int().min(1000).max(120_000).default(PAGE_LOAD_TIMEOUT_MS),
    /** Every outcome on each engine × device × network (decision 0078). */
    ...matrixOptions(
      PAYMENT_ENGINES,
      (engine) =>
        `payment tests do not run on ${engine}: they type into the providers' cross-origin card frames, which the engine reaches through Playwright, and WebKit is driven here over WebDriver for page checks only (decision 0079). The engines are ${PAYMENT_ENGINES.join(', ')}`,
    ),
  },
  z.object({}).strict(),
).superRefine(({ options }, ctx) => {
  checkCellBound(options, ctx);
  // A test types only the catalogue's cards: a number that could be live is refused wherever it is written.
  for (const found of foreignNumbersIn(options)) ctx.addIssue({ code: 'custom', path: ['options', ...found.path], message: liveCardRefusal(found.masked) });
  for (const outcome of PAYMENT_OUTCOMES) {
    if (options.expect[outcome]?.orderId !== undefined && !PAID_OUTCOMES.includes(outcome)) {
      ctx.addIssue({ code: 'custom', path: ['options', 'expect', outcome, 'orderId'], message: `a declined payment has no order number: orderId is for ${PAID_OUTCOMES.join(' and ')}` });
    }
  }
});
export type PaymentOptions = z.output<typeof paymentInput>['options'];

/**
 * What the page must show after `outcome`, and what ends the wait at once as a failure: a declined outcome's page
 * showing the success text. A paid outcome's waits for its text alone (a decline's default words are too common to
 * end it early).
 */
export function expectationOf(options: PaymentOptions, outcome: PaymentOutcome): { text: RegExp; orderId: RegExp | null; not: RegExp | null } {
  const own = options.expect[outcome];
  const successText = options.expect.success?.text ?? DEFAULT_SUCCESS_TEXT;
  if (PAID_OUTCOMES.includes(outcome)) {
    return { text: new RegExp(own?.text ?? successText, 'i'), orderId: new RegExp(own?.orderId ?? options.expect.success?.orderId ?? DEFAULT_ORDER_ID, 'i'), not: null };
  }
  return { text: new RegExp(own?.text ?? DEFAULT_DECLINE_TEXT, 'i'), orderId: null, not: new RegExp(successText, 'i') };
}
