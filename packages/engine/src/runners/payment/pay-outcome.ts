/**
 * One case of a payment test: one outcome in one cell, in a browser context of its own whose every request is
 * guarded (card-guard.ts). The start page, the steps to the payment form, the payment (pay-with-card.ts), then what
 * the page shows; a screenshot after it, whatever became of it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { caseInCell, liveCardRefusal, type PaymentOutcome } from '@fullstop/contracts';
import type { Browser, Page } from 'playwright-core';
import { RunAbortedError } from '../../errors.ts';
import { errorMessage } from '../../lib/result.ts';
import type { CaseResult, RunContext } from '../../types.ts';
import { deviceUse } from '../browser/devices.ts';
import type { Cell } from '../browser/matrix.ts';
import { guardCardRequests } from './card-guard.ts';
import { DEFAULT_DECLINE_TEXT, DEFAULT_ORDER_ID, DEFAULT_SUCCESS_TEXT, DOUBLE_CHARGE_WATCH_MS, expectationOf, PAID_OUTCOMES, type PaymentOptions, type PaymentStep } from './options.ts';
import { payWithCard } from './pay-with-card.ts';

type Step = NonNullable<CaseResult['steps']>[number];

/** What the page had to show and what it showed, in words: a case's `expected` and `actual`. */
interface Judged {
  expected: string;
  actual: string;
}

/** The page did not show what the outcome must show. */
class OutcomeMismatchError extends Error {
  readonly judged: Judged;

  constructor(message: string, judged: Judged) {
    super(message);
    this.name = 'OutcomeMismatchError';
    this.judged = judged;
  }
}

/** How often the page's text is read while waiting for an outcome. */
const READ_EVERY_MS = 200;
/** The page's text read at most: what a checkout shows fits well within it. */
const MAX_TEXT = 100_000;
const SCREENSHOT_TIMEOUT_MS = 10_000;

/** A step in words, for the case's steps. */
export function stepTitle(step: PaymentStep): string {
  if (step.fill) return `Fill in "${step.fill.label}"`;
  const click = step.click!;
  if (click.text !== undefined) return `Click the text "${click.text}"`;
  return `Click the ${click.role ?? 'button or link'} "${click.name}"`;
}

async function perform(page: Page, step: PaymentStep, timeout: number): Promise<void> {
  if (step.fill) {
    await page.getByLabel(step.fill.label).first().fill(step.fill.value, { timeout });
    return;
  }
  const click = step.click!;
  const target =
    click.text !== undefined
      ? page.getByText(click.text).first()
      : click.role
        ? page.getByRole(click.role, { name: click.name }).first()
        : page.getByRole('button', { name: click.name }).or(page.getByRole('link', { name: click.name })).first();
  await target.click({ timeout });
}

/** The page's visible text, in one line per line of it. */
async function pageText(page: Page): Promise<string> {
  const text = await page.locator('body').innerText({ timeout: 2_000 }).catch(() => '');
  return text.slice(0, MAX_TEXT);
}

const linesOf = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);
const shorter = (line: string) => (line.length > 200 ? `${line.slice(0, 199)}…` : line);

/**
 * What the reader is told the page showed when nothing matched: the lines it did not show before the payment (where
 * a checkout says what is happening), else its last lines.
 */
function shownAfter(text: string, before: ReadonlySet<string>): string {
  const lines = linesOf(text);
  const added = lines.filter((l) => !before.has(l));
  return shorter((added.length ? added : lines).slice(-3).join(' / ')) || '(no text)';
}

/** Each distinct match of `re` in `text`. */
const every = (re: RegExp, text: string) => [...new Set([...text.matchAll(new RegExp(re.source, `${re.flags.replace('g', '')}g`))].map((m) => m[0]))];

/**
 * The first line of `text` where `re` matches that the page did not show before the payment (`before`): a checkout
 * that says "Thank you for shopping" over its form, or names an error it may show, has not answered by it. Null when
 * there is none.
 */
function newLine(re: RegExp, text: string, before: ReadonlySet<string>): string | null {
  const line = linesOf(text).find((l) => !before.has(l) && re.test(l));
  return line === undefined ? null : shorter(line);
}

/** A pattern as a client reads it: the defaults in words, a suite's own as it wrote it. */
function patternWords(re: RegExp): string {
  if (re.source === DEFAULT_SUCCESS_TEXT) return 'a thank-you or confirmation text';
  if (re.source === DEFAULT_DECLINE_TEXT) return 'a decline or error message';
  if (re.source === DEFAULT_ORDER_ID) return 'an order number such as #FS-1042';
  return `/${re.source}/`;
}

/** What a page must show after an outcome, in words: "the page shows a decline or error message, not a thank-you …". */
export function expectedWords(want: { text: RegExp; orderId: RegExp | null; not: RegExp | null }): string {
  const order = want.orderId ? ` and ${want.orderId.source === DEFAULT_ORDER_ID ? patternWords(want.orderId) : `an order number /${want.orderId.source}/`}` : '';
  return `the page shows ${patternWords(want.text)}${order}${want.not ? `, not ${patternWords(want.not)}` : ''}`;
}

/**
 * Waits until the page shows what `outcome` must show, and judges it: the success text and an order number after a
 * paid outcome (one order only, when the pay button was clicked twice), a decline's text and no success after the
 * others; only lines the page did not show before the payment count. Returns what it expected and what the page
 * showed; throws, saying both, when it does not hold.
 */
async function checkOutcome(
  page: Page,
  p: { options: PaymentOptions; outcome: PaymentOutcome; clickedTwice: boolean; before: ReadonlySet<string>; signal: AbortSignal },
): Promise<Judged> {
  const { options } = p;
  const want = expectationOf(options, p.outcome);
  const expected = expectedWords(want);
  const fail = (message: string, actual: string, exp = expected) => new OutcomeMismatchError(message, { expected: exp, actual });
  const deadline = Date.now() + options.outcomeTimeoutMs;
  for (;;) {
    if (p.signal.aborted) throw new RunAbortedError();
    const text = await pageText(page);
    const wrong = want.not ? newLine(want.not, text, p.before) : null;
    if (wrong) throw fail(`expected ${expected}; it shows "${wrong}"`, wrong);
    const shown = newLine(want.text, text, p.before);
    const order = want.orderId ? newLine(want.orderId, text, p.before) : null;
    if (shown && (!want.orderId || order)) {
      if (!p.clickedTwice || !want.orderId) return { expected, actual: order && order !== shown ? `${shown} / ${order}` : shown };
      // A second order may come a moment after the first: the page is watched a little longer.
      await new Promise((resolve) => setTimeout(resolve, DOUBLE_CHARGE_WATCH_MS));
      const orders = every(want.orderId, linesOf(await pageText(page)).filter((l) => !p.before.has(l)).join('\n'));
      const once = `${expected}, once`;
      if (orders.length > 1) throw fail(`the page shows ${orders.length} orders after the pay button was clicked twice (${orders.join(', ')}): the payment may have been charged twice`, `${orders.length} orders: ${orders.join(', ')}`, once);
      return { expected: once, actual: order && order !== shown ? `${shown} / ${order}` : shown };
    }
    if (Date.now() >= deadline) {
      const actual = shownAfter(text, p.before);
      const what = shown ? 'the success text but no order number' : `"${actual}"`;
      throw fail(`expected ${expected} within ${options.outcomeTimeoutMs / 1000} s of paying; it shows ${what}`, actual);
    }
    await new Promise((resolve) => setTimeout(resolve, READ_EVERY_MS));
  }
}

export interface OutcomeRun {
  browser: Browser;
  cell: Cell;
  /** Whether the case's name carries its cell (a test on several). */
  named: boolean;
  options: PaymentOptions;
  outcome: PaymentOutcome;
  startUrl: string;
  ctx: RunContext;
}

/** The case's screenshot, inside the attempt's folder: `payment/<engine>-<device>[-<network>]/<outcome>.png`. */
export function screenshotPath(cell: Cell, outcome: PaymentOutcome): string {
  return path.posix.join('payment', cell.name.replace(/\//g, '-'), `${outcome}.png`);
}

/** Pays one outcome in one cell: its case, passed or failed with the first error, its steps and its screenshot. */
export async function payOutcome(p: OutcomeRun): Promise<CaseResult> {
  const { options, outcome, ctx, cell } = p;
  const started = performance.now();
  const steps: Step[] = [];
  let error: string | null = null;
  let judged: Judged | null = null;
  let screenshot: string | undefined;
  const context = await p.browser.newContext(deviceUse(cell.device, cell.engine));
  try {
    // Every request of the case, the start page's first, is guarded.
    const guard = await guardCardRequests(context);
    const page = await context.newPage();
    const step = async <T>(title: string, body: () => Promise<T>): Promise<T> => {
      const at = performance.now();
      try {
        const value = await body();
        steps.push({ title, durationMs: Math.round(performance.now() - at) });
        return value;
      } catch (error) {
        steps.push({ title, durationMs: Math.round(performance.now() - at), error: errorMessage(error) });
        throw error;
      }
    };
    try {
      await step(`Open ${options.start}`, async () => {
        const response = await page.goto(p.startUrl, { waitUntil: 'load', timeout: options.pageTimeoutMs });
        if (response && response.status() >= 400) throw new Error(`${options.start} answered ${response.status()}`);
      });
      for (const s of options.steps) await step(stepTitle(s), () => perform(page, s, options.pageTimeoutMs));
      const clickedTwice = options.expect.noDoubleCharge && outcome === 'success';
      const before = new Set(linesOf(await pageText(page)));
      await payWithCard(page, {
        provider: options.provider,
        outcome,
        ...(options.amount ? { amount: options.amount } : {}),
        ...(options.submit ? { submit: options.submit } : {}),
        clicks: clickedTwice ? 2 : 1,
        screenshots: false,
        onStage: (stage) => steps.push({ title: stage.title, durationMs: stage.durationMs, ...(stage.error ? { error: stage.error } : {}) }),
      });
      judged = await step(PAID_OUTCOMES.includes(outcome) ? 'Check that the payment went through' : 'Check that the payment was refused', () => checkOutcome(page, { options, outcome, clickedTwice, before, signal: ctx.signal }));
      guard.check();
    } catch (thrown) {
      if (ctx.signal.aborted) throw new RunAbortedError();
      error = errorMessage(thrown);
      judged = thrown instanceof OutcomeMismatchError ? thrown.judged : null;
    }
    // A refused request is the case's failure, whatever else went wrong after it (the page may have waited for it).
    const refused = guard.refused();
    if (refused.length > 0) {
      error = liveCardRefusal(refused);
      judged = { expected: 'no request carries a card number outside the catalogue', actual: `refused: ${refused.join(', ')}` };
    }
    const rel = screenshotPath(cell, outcome);
    const png = await page.screenshot({ timeout: SCREENSHOT_TIMEOUT_MS }).catch(() => null);
    if (png) {
      await mkdir(path.dirname(path.join(ctx.runDir, rel)), { recursive: true });
      await writeFile(path.join(ctx.runDir, rel), png);
      screenshot = rel;
    }
  } finally {
    await context.close().catch(() => undefined);
  }
  return {
    name: p.named ? caseInCell(outcome, cell.name) : outcome,
    status: error ? 'failed' : 'passed',
    durationMs: Math.round(performance.now() - started),
    ...(p.named ? { cell: cell.name } : {}),
    ...(error ? { error } : {}),
    ...(judged ?? {}),
    steps,
    ...(screenshot ? { screenshot } : {}),
  };
}
