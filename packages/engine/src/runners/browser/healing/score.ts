/**
 * How alike an element of the page now is to the fingerprint a passing run took (decision 0101), and whether one
 * candidate wins clearly enough to act on it. Pure: the page's answers come in parsed (ingest.ts).
 */
import type { ElementFingerprint, HealCandidate } from '@fullstop/contracts/healing';

/**
 * What each part of a fingerprint weighs. A score is the weighted mean of the parts the fingerprint has, each
 * compared from 0 (different) to 1 (the same): a part the old element lacked (no test id) neither helps nor hurts.
 * Who the element is (test id, id, role and name, label) weighs more than how it looks or where it is.
 */
export const HEAL_WEIGHTS = {
  testId: 8,
  id: 2,
  role: 1.5,
  name: 2.5,
  text: 1.5,
  label: 1.5,
  attributes: 1,
  tag: 0.5,
  classes: 0.5,
  neighbours: 1.5,
  position: 1,
  index: 0.25,
} as const;

/** A winner scores at least this much… */
export const HEAL_MIN_SCORE = 0.6;
/** …and at least this much more than the runner-up: two alike candidates are a question for a person. */
export const HEAL_MIN_MARGIN = 0.1;

const normal = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

function bigrams(s: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const b = s.slice(i, i + 2);
    out.set(b, (out.get(b) ?? 0) + 1);
  }
  return out;
}

/** 1 for the same text (case and spaces aside); else the better of the words' and the letter pairs' Dice coefficient. */
export function textSimilarity(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return 0;
  const x = normal(a);
  const y = normal(b);
  if (x === y) return 1;
  if (!x || !y) return 0;
  const wx = new Set(x.split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  const wy = new Set(y.split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  const sharedWords = [...wx].filter((w) => wy.has(w)).length;
  const words = wx.size + wy.size > 0 ? (2 * sharedWords) / (wx.size + wy.size) : 0;
  const bx = bigrams(x);
  const by = bigrams(y);
  let shared = 0;
  for (const [b, n] of bx) shared += Math.min(n, by.get(b) ?? 0);
  const pairs = x.length + y.length - 2 > 0 ? (2 * shared) / (x.length + y.length - 2) : 0;
  return Math.max(words, pairs);
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Of the attributes the old element had, how alike the candidate's are. */
function attributesSimilarity(old: ElementFingerprint['attributes'], now: ElementFingerprint['attributes']): number | null {
  const keys = (Object.keys(old) as (keyof typeof old)[]).filter((k) => old[k]);
  if (keys.length === 0) return null;
  return mean(keys.map((k) => textSimilarity(old[k], now[k])));
}

function neighboursSimilarity(old: ElementFingerprint['neighbours'], now: ElementFingerprint['neighbours']): number | null {
  const keys = (Object.keys(old) as (keyof typeof old)[]).filter((k) => old[k]);
  if (keys.length === 0) return null;
  return mean(keys.map((k) => textSimilarity(old[k], now[k])));
}

function classesSimilarity(old: string[], now: string[]): number | null {
  if (old.length === 0) return null;
  const a = new Set(old);
  const b = new Set(now);
  const shared = [...a].filter((c) => b.has(c)).length;
  return shared / new Set([...a, ...b]).size;
}

/** 1 at the same place, 0 half a viewport or more away (centres, in viewports). */
function positionSimilarity(old: ElementFingerprint['box'], now: ElementFingerprint['box']): number | null {
  if (!old) return null;
  if (!now) return 0;
  const dx = old.x + old.width / 2 - (now.x + now.width / 2);
  const dy = old.y + old.height / 2 - (now.y + now.height / 2);
  return Math.max(0, 1 - Math.hypot(dx, dy) / 0.5);
}

/** The score of one candidate, from 0 to 1. */
export function scoreCandidate(old: ElementFingerprint, now: ElementFingerprint): number {
  const parts: [weight: number, similarity: number | null][] = [
    [HEAL_WEIGHTS.testId, old.testId ? (old.testId === now.testId ? 1 : 0) : null],
    [HEAL_WEIGHTS.id, old.id ? textSimilarity(old.id.replace(/[-_]/g, ' '), now.id?.replace(/[-_]/g, ' ')) : null],
    [HEAL_WEIGHTS.role, old.role ? (old.role === now.role ? 1 : 0) : null],
    [HEAL_WEIGHTS.name, old.name ? textSimilarity(old.name, now.name) : null],
    [HEAL_WEIGHTS.text, old.text ? textSimilarity(old.text, now.text) : null],
    [HEAL_WEIGHTS.label, old.label ? textSimilarity(old.label, now.label) : null],
    [HEAL_WEIGHTS.attributes, attributesSimilarity(old.attributes, now.attributes)],
    [HEAL_WEIGHTS.tag, old.tag === now.tag ? 1 : 0],
    [HEAL_WEIGHTS.classes, classesSimilarity(old.classes, now.classes)],
    [HEAL_WEIGHTS.neighbours, neighboursSimilarity(old.neighbours, now.neighbours)],
    [HEAL_WEIGHTS.position, positionSimilarity(old.box, now.box)],
    [HEAL_WEIGHTS.index, old.index === now.index ? 1 : 0],
  ];
  let sum = 0;
  let weights = 0;
  for (const [weight, similarity] of parts) {
    if (similarity === null) continue;
    sum += weight * similarity;
    weights += weight;
  }
  return weights === 0 ? 0 : Math.round((sum / weights) * 1000) / 1000;
}

/** How a person names an element: `button "Save draft"`, `text box "Email"`, `link #about`. */
export function describeElement(f: ElementFingerprint): string {
  const what = f.role ? f.role.replace('textbox', 'text box') : f.tag;
  const called = f.name ?? f.label ?? f.text ?? f.attributes.placeholder;
  const clipped = called && called.length > 60 ? `${called.slice(0, 59)}…` : called;
  if (clipped) return `${what} "${clipped}"`;
  if (f.testId) return `${what} [data-testid=${f.testId.slice(0, 40)}]`;
  if (f.id) return `${what} #${f.id.slice(0, 40)}`;
  return what;
}

export interface Scored<T> {
  item: T;
  fingerprint: ElementFingerprint;
  score: number;
}

export type HealDecision<T> =
  | { healed: true; winner: Scored<T>; runnerUp: Scored<T> | null; top: Scored<T>[] }
  | { healed: false; why: string; top: Scored<T>[] };

const described = (s: Scored<unknown>) => `${describeElement(s.fingerprint)} (${s.score.toFixed(2)})`;

/** The best three of the candidates, and whether the best wins: at least HEAL_MIN_SCORE, HEAL_MIN_MARGIN ahead. */
export function decide<T>(old: ElementFingerprint, candidates: readonly { item: T; fingerprint: ElementFingerprint }[]): HealDecision<T> {
  const scored = candidates.map((c) => ({ ...c, score: scoreCandidate(old, c.fingerprint) })).sort((a, b) => b.score - a.score);
  const top = scored.slice(0, 3);
  const [first, second] = top;
  if (!first) return { healed: false, why: 'no candidate on the page', top };
  if (first.score < HEAL_MIN_SCORE) return { healed: false, why: `no candidate is alike enough: the closest is ${described(first)}, below ${HEAL_MIN_SCORE}`, top };
  if (second && first.score - second.score < HEAL_MIN_MARGIN) return { healed: false, why: `two candidates score alike: ${described(first)}, ${described(second)}`, top };
  return { healed: true, winner: first, runnerUp: second ?? null, top };
}

/** The top candidates as a heal keeps them. */
export function candidatesOf(top: readonly Scored<unknown>[]): HealCandidate[] {
  return top.map((s) => ({ description: describeElement(s.fingerprint).slice(0, 240), score: s.score }));
}

const quoted = (s: string) => `"${s.length > 80 ? `${s.slice(0, 79)}…` : s}"`;

/** What changed between the old element and the healed one, in a client's words: `the button's label changed from "Send" to "Send message"`. */
export function changeInWords(old: ElementFingerprint, now: ElementFingerprint): string {
  const what = old.role ? old.role.replace('textbox', 'text box') : old.tag;
  const changes: string[] = [];
  if (old.name && now.name && normal(old.name) !== normal(now.name)) changes.push(`the ${what}'s label changed from ${quoted(old.name)} to ${quoted(now.name)}`);
  else if (old.text && now.text && normal(old.text) !== normal(now.text)) changes.push(`the ${what}'s text changed from ${quoted(old.text)} to ${quoted(now.text)}`);
  if (old.testId && old.testId !== now.testId) changes.push(now.testId ? `its test id changed from ${quoted(old.testId)} to ${quoted(now.testId)}` : `its test id ${quoted(old.testId)} is gone`);
  if (old.id && old.id !== now.id) changes.push(now.id ? `its id changed from ${quoted(old.id)} to ${quoted(now.id)}` : `its id ${quoted(old.id)} is gone`);
  if (old.role && now.role && old.role !== now.role) changes.push(`it is now a ${now.role}`);
  if (changes.length === 0) changes.push(`the ${what} ${quoted(describeElement(now))} is no longer found the way the test looks for it`);
  return changes.join('; ');
}
