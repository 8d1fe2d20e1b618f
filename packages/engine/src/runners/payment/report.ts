/**
 * Payment tests in a report: a table of the outcomes paid, each with what the page had to show and what it showed,
 * its steps when it failed and the screenshot after it; which outcomes fail, in words ("fails on 3-D Secure only");
 * and the engines × devices matrix when the test ran on several cells.
 */
import {
  caseWithoutCell,
  cellLabel,
  cardExpiry,
  maskCardNumber,
  PAYMENT_CATALOGUE,
  PAYMENT_OUTCOME_WORDS,
  PAYMENT_OUTCOMES,
  type PaymentOutcome,
  type PaymentProvider,
  THREE_DS_OUTCOMES,
} from '@fullstop/contracts';
import { firstLine, formatDuration } from '../../reporters/format.ts';
import { escapeHtml as e } from '../../reporters/html/escape.ts';
import type { KindReport } from '../../reporters/html/kind-report.ts';
import { card, cards, pre, section, statusBadge } from '../../reporters/html/parts.ts';
import type { RenderOptions } from '../../reporters/html/render-options.ts';
import type { RunReport } from '../../reporters/types.ts';
import type { CaseResult } from '../../types.ts';
import { matrixSection } from '../browser/matrix-report.ts';
import type { PaymentSummary } from './facts.ts';

/** A case's outcome: its name without its cell; null for a name that is none (a report of an older shape). */
export function outcomeOf(c: CaseResult): PaymentOutcome | null {
  const name = caseWithoutCell(c.name, c.cell);
  return (PAYMENT_OUTCOMES as readonly string[]).includes(name) ? (name as PaymentOutcome) : null;
}

/** Outcomes in words, as a sentence lists them: "insufficient funds and a wrong CVC". */
function listed(outcomes: readonly PaymentOutcome[]): string {
  const words = outcomes.map((o) => PAYMENT_OUTCOME_WORDS[o]);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
}

/**
 * Which outcomes fail, in words: "fails on 3-D Secure only" when exactly the 3-D Secure outcomes that ran fail (and
 * others ran), "fails on every outcome", else "fails on insufficient funds and a wrong CVC". Null when none fails.
 * An outcome fails when it fails in any cell (the matrix says where).
 */
export function failingOutcomesPhrase(cases: readonly CaseResult[]): string | null {
  const ran = PAYMENT_OUTCOMES.filter((o) => cases.some((c) => outcomeOf(c) === o));
  const failing = ran.filter((o) => cases.some((c) => outcomeOf(c) === o && c.status === 'failed'));
  if (failing.length === 0) return null;
  if (failing.length === ran.length) return ran.length === 1 ? `fails on ${listed(failing)}` : 'fails on every outcome';
  const threeDs = ran.filter((o) => THREE_DS_OUTCOMES.includes(o));
  if (threeDs.length > 0 && failing.length === threeDs.length && failing.every((o) => THREE_DS_OUTCOMES.includes(o))) return 'fails on 3-D Secure only';
  return `fails on ${listed(failing)}`;
}

/** The card an outcome types, in a table cell: "•••• 3184, 12/27, CVC 123" and what the provider reads it by. */
function cardOf(provider: PaymentProvider | undefined, outcome: PaymentOutcome | null): string {
  if (!provider || !outcome) return '';
  const c = PAYMENT_CATALOGUE[provider].cards[outcome];
  const typed = [maskCardNumber(c.number), c.expiry === 'future' || c.expiry === 'past' ? `${c.expiry} expiry` : cardExpiry(c), `CVC ${c.cvc}`];
  if (c.holderName) typed.push(`name ${c.holderName}`);
  if (c.amount) typed.push(`amount ${c.amount}`);
  return `${e(typed.join(', '))}<div class="muted small">${e(c.note)}</div>`;
}

function stepsOf(c: CaseResult): string {
  if (!c.steps?.length || c.status !== 'failed') return '';
  const items = c.steps.map((s) => `<li${s.error ? ' class="failed"' : ''}>${e(s.title)} <span class="muted">${e(formatDuration(s.durationMs))}</span></li>`).join('');
  return `<details><summary>Steps (${c.steps.length})</summary><ol class="steps">${items}</ol></details>`;
}

function shotOf(c: CaseResult, opts: RenderOptions): string {
  if (!c.screenshot) return '<p class="muted small">No screenshot: the page could not be captured.</p>';
  const uri = opts.image?.(c.screenshot);
  if (uri) return `<figure><div class="shot-frame"><img class="shot" src="${e(uri)}" alt="${e(`The page after ${c.name}`)}"></div></figure>`;
  return `<p class="muted small">Screenshot in the zip report: <code>${e(c.screenshot)}</code></p>`;
}

/**
 * The outcomes, a row each, with the screenshot after each in the row below it. In the run report (condensed) only
 * those that failed, without screenshots.
 */
function outcomesTable(s: PaymentSummary, opts: RenderOptions): string {
  const shown = opts.condensed ? s.cases.filter((c) => c.status === 'failed') : s.cases;
  if (shown.length === 0) return opts.condensed ? `<p class="muted">Every outcome ended as expected.</p>` : '';
  const cells = s.cases.some((c) => c.cell);
  const head = ['Result', 'Outcome', ...(cells ? ['Cell'] : []), 'Card', 'Expected / got'];
  const rows = shown.map((c) => {
    const outcome = outcomeOf(c);
    const said = `${e(c.expected ?? '–')}<div><b>got</b> ${e(c.actual ?? (c.status === 'failed' ? (firstLine(c.error) ?? 'no answer') : '–'))}</div>`;
    const error = c.status === 'failed' && c.error && c.error !== c.actual ? pre(c.error, 2000) : '';
    const tds = [
      statusBadge(c.status),
      `${e(outcome ? PAYMENT_OUTCOME_WORDS[outcome] : c.name)}<div class="muted small"><code>${e(outcome ?? '')}</code> <span class="num">${e(formatDuration(c.durationMs))}</span></div>`,
      ...(cells ? [e(c.cell ? cellLabel(c.cell) : '')] : []),
      cardOf(s.provider, outcome),
      said + error + stepsOf(c),
    ];
    const row = `<tr>${tds.map((td) => `<td>${td}</td>`).join('')}</tr>`;
    return opts.condensed ? row : `${row}<tr><td colspan="${head.length}">${shotOf(c, opts)}</td></tr>`;
  });
  const table = `<div class="table-wrap"><table><thead><tr>${head.map((h) => `<th>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
  const provider = s.provider ? ` with ${PAYMENT_CATALOGUE[s.provider].label} cards` : '';
  return section(opts.condensed ? `Failed outcomes (${shown.length})` : `Outcomes${provider} (${s.cases.length})`, table);
}

function paymentCards(r: RunReport, s: PaymentSummary): string[] {
  const t = r.totals;
  const phrase = failingOutcomesPhrase(s.cases);
  return [
    card(String(t.failedTests), 'failed', t.failedTests ? 'bad' : ''),
    card(String(t.passedTests), 'passed', t.passedTests && !t.failedTests ? 'ok' : ''),
    card(String(t.totalTests), 'in total'),
    ...(phrase ? [card(phrase.replace(/^fails on /, ''), 'fails on', 'bad')] : []),
  ];
}

const cellsIn = (s: PaymentSummary) => new Set(s.cases.map((c) => c.cell).filter(Boolean)).size;

export const report: KindReport<'payment'> = {
  kind: 'payment',
  verdict(r, s) {
    const phrase = failingOutcomesPhrase(s.cases);
    if (phrase) return `The checkout ${phrase}`;
    if (r.status === 'failed') return `Failed: ${firstLine(r.error) ?? 'the run reported a failure'}`;
    const outcomes = new Set(s.cases.map(outcomeOf)).size;
    const cells = cellsIn(s);
    if (outcomes === 0) return 'No outcome was paid';
    return `${outcomes === 1 ? 'The outcome ends' : `All ${outcomes} outcomes end`} as expected${cells > 1 ? ` on ${cells} cells` : ''}`;
  },
  keyFigure(r) {
    return `${r.totals.passedTests} of ${r.totals.totalTests} outcomes as expected`;
  },
  body: (r, s, opts) => cards(paymentCards(r, s)) + matrixSection(s.cases, { whatRan: false }) + outcomesTable(s, opts),
  passingScreenshots: true,
};
