// Healed locators (issue 42, docs/decisions/0101): what a browser test's spec touched (a fingerprint of each element
// its locators found, by call site) and what the engine did when a locator found nothing or too much (a heal). The
// engine writes both files of an attempt, the server keeps the fingerprints of the last passing run of a suite
// version and gives them to the next attempt, the portal shows the heals. One schema per message, for all of them.
//
// A fingerprint is what a client's page said about an element: hostile data. Every string is bounded here and the
// engine clips before it parses, so a page that says more is cut short, and one that says something else is refused.
import { z } from 'zod';
import { FINGERPRINT_ATTRIBUTE_CHARS, FINGERPRINT_BOX_LIMIT, FINGERPRINT_CLASS_CHARS, FINGERPRINT_CLASSES, FINGERPRINT_TEXT_CHARS, MAX_CALL_SITES, MAX_FINGERPRINT_BYTES, MAX_HEALS } from './healing-limits.ts';

export * from './healing-limits.ts';

/** What a heal does to the case: `fail` (the default) fails it with the heal as its message, `pass` passes it marked healed, `off` heals nothing. */
export const HEALING_MODES = ['fail', 'pass', 'off'] as const;
export const healingMode = z.enum(HEALING_MODES);
export type HealingMode = z.infer<typeof healingMode>;

const clippedText = z.string().max(FINGERPRINT_TEXT_CHARS);
const clippedAttribute = z.string().max(FINGERPRINT_ATTRIBUTE_CHARS);
/** A fraction of the viewport's width or height (a page scrolled far down is many viewports tall). */
const viewportFraction = z.number().min(-FINGERPRINT_BOX_LIMIT).max(FINGERPRINT_BOX_LIMIT);

/**
 * One element as a spec's locator found it: who it is (test id, id, role and accessible name, text, label,
 * attributes), what is around it (the text of its siblings and of the heading above it) and where it was (its box in
 * the page, in viewports from the top left, and its place among its parent's children of its tag).
 */
export const elementFingerprint = z
  .object({
    tag: z.string().min(1).max(24),
    /** Its ARIA role, explicit or implied by its tag (`button`, `link`, `textbox`, …), when it has one. */
    role: z.string().max(32).optional(),
    /** Its accessible name as the page computes it simply (aria-label, labels, text, title, alt, placeholder). */
    name: clippedText.optional(),
    text: clippedText.optional(),
    testId: clippedAttribute.optional(),
    id: clippedAttribute.optional(),
    classes: z.array(z.string().min(1).max(FINGERPRINT_CLASS_CHARS)).max(FINGERPRINT_CLASSES),
    attributes: z
      .object({ name: clippedAttribute, type: clippedAttribute, placeholder: clippedAttribute, title: clippedAttribute, alt: clippedAttribute, href: clippedAttribute })
      .partial()
      .strict(),
    /** The text of the label it belongs to (`<label for>`, a label around it, aria-labelledby). */
    label: clippedText.optional(),
    neighbours: z.object({ previous: clippedAttribute, next: clippedAttribute, heading: clippedAttribute }).partial().strict(),
    box: z.object({ x: viewportFraction, y: viewportFraction, width: viewportFraction, height: viewportFraction }).strict().optional(),
    /** Its place among its parent's children of the same tag, from 0. */
    index: z.number().int().min(0).max(100_000),
  })
  .strict()
  .refine((f) => JSON.stringify(f).length <= MAX_FINGERPRINT_BYTES, { error: `a fingerprint is at most ${MAX_FINGERPRINT_BYTES} bytes` });
export type ElementFingerprint = z.infer<typeof elementFingerprint>;

/**
 * Where a spec used a locator: its file relative to the suite folder (`/` between folders), line and column, and the
 * locator as Playwright prints it (`getByRole('button', { name: 'Send' })`).
 */
export const callSite = z
  .object({
    file: z
      .string()
      .min(1)
      .max(300)
      .refine((f) => !f.startsWith('/') && !f.split('/').includes('..'), 'a file inside the suite folder'),
    line: z.number().int().min(1).max(1_000_000),
    column: z.number().int().min(1).max(100_000),
    locator: z.string().min(1).max(500),
  })
  .strict();
export type CallSite = z.infer<typeof callSite>;

/** A call site and the element it found in a passing test. */
export const recordedFingerprint = z.object({ site: callSite, fingerprint: elementFingerprint }).strict();
export type RecordedFingerprint = z.infer<typeof recordedFingerprint>;

/**
 * `fingerprints.json` of an attempt's browser folder: each call site once (the first passing test that reached it),
 * at most MAX_CALL_SITES. The server keeps the last passing run's for the suite version and gives it to the next
 * attempt (the engine's RunContext.healingFingerprints).
 */
export const fingerprintsFile = z
  .object({
    version: z.literal(1),
    sites: z.array(recordedFingerprint).max(MAX_CALL_SITES),
  })
  .strict();
export type FingerprintsFile = z.infer<typeof fingerprintsFile>;

/** One element the healing weighed, described for a person (`button "Save draft"`), and its score from 0 to 1. */
export const healCandidate = z.object({ description: z.string().min(1).max(240), score: z.number().min(0).max(1) }).strict();
export type HealCandidate = z.infer<typeof healCandidate>;

/** What a case carries of a heal (CaseResult.healed): enough for a report's sentence and its evidence. */
export const caseHeal = z
  .object({
    site: callSite,
    /** The locator as the spec has it, and the one that found the element now, as source a spec would contain. */
    oldLocator: z.string().min(1).max(600),
    newLocator: z.string().min(1).max(600),
    score: z.number().min(0).max(1),
    /** The second best candidate's score; null when there was none. */
    runnerUp: z.number().min(0).max(1).nullable(),
    /** In words a client reads: `the button's label changed from "Send" to "Send message"`. */
    change: z.string().min(1).max(600),
    /** The page when healed, the element outlined: a PNG relative to the run folder. */
    screenshot: z.string().min(1).max(300).optional(),
  })
  .strict();
export type CaseHeal = z.infer<typeof caseHeal>;

/** A heal as `heals.json` keeps it: the case's part, the test it happened in, the candidates and the old evidence. */
export const heal = caseHeal
  .extend({
    /** The test as Playwright titles it (`file › describe › title`), its cell when the test has several. */
    test: z.string().min(1).max(600),
    cell: z.string().max(100).optional(),
    /** What the heal did to the case (never `off`: then nothing heals). */
    mode: z.enum(['fail', 'pass']),
    /** The best candidates, best first (three at most), the healed one first. */
    candidates: z.array(healCandidate).max(3),
    /** The element as the last passing run saw it. */
    fingerprint: elementFingerprint,
  })
  .strict();
export type Heal = z.infer<typeof heal>;

/** `heals.json` of an attempt's browser folder. */
export const healsFile = z.object({ version: z.literal(1), heals: z.array(heal).max(MAX_HEALS) }).strict();
export type HealsFile = z.infer<typeof healsFile>;
