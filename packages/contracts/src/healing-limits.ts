// The bounds of healed locators' messages (issue 42, docs/decisions/0101) and the one key of a call site, without
// zod: Playwright's test workers fingerprint with these in the hot path and load no schema library (the runner and
// the server parse what the workers wrote with healing.ts's schemas, which are built on these numbers).

/** Call sites an attempt records at most (the first ones a passing test reached). */
export const MAX_CALL_SITES = 200;
/** Heals an attempt records at most. */
export const MAX_HEALS = 100;
/** A fingerprint, as JSON, in bytes at most. */
export const MAX_FINGERPRINT_BYTES = 2048;
/** Longest text (element text, accessible name, label) a fingerprint keeps, in characters. */
export const FINGERPRINT_TEXT_CHARS = 160;
/** Longest attribute value (id, test id, name, placeholder, …) and neighbour text a fingerprint keeps. */
export const FINGERPRINT_ATTRIBUTE_CHARS = 100;
/** Classes a fingerprint keeps, and the length of each. */
export const FINGERPRINT_CLASSES = 8;
export const FINGERPRINT_CLASS_CHARS = 40;
/** A box's coordinates, in viewports, at most this far from the page's top left (a long page is many viewports tall). */
export const FINGERPRINT_BOX_LIMIT = 1000;

/** The one key of a call site: `file:line:column locator`. */
export function callSiteKey(site: { file: string; line: number; column: number; locator: string }): string {
  return `${site.file}:${site.line}:${site.column} ${site.locator}`;
}
