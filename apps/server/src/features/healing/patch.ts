import { createHash } from 'node:crypto';
import type { CaseHeal } from '@fullstop/contracts';

// A heal as a change to a spec (decision 0101, "The server's half"): the old locator replaced by the new one on the
// call site's line, verbatim or not at all. The new locator was made from what a client's page said, so it is written
// into code only when it has the one shape the engine makes (a page-level `getBy…`/`locator` call of string
// literals), and only into a proposed version a person reads as a diff before it runs.

/** A JavaScript string literal, single or double quoted, on one line: what ends it is its own closing quote. */
const STRING = String.raw`(?:'(?:[^'\\\n\r\u2028\u2029]|\\[^\n\r])*'|"(?:[^"\\\n\r\u2028\u2029]|\\[^\n\r])*")`;
/** `{ name: '…', exact: true }` in Playwright's order and spacing, each part optional. */
const OPTIONS = String.raw`\{ (?:name: ${STRING}(?:, exact: (?:true|false))?|exact: (?:true|false)) \}`;
const WRITABLE = new RegExp(String.raw`^(?:page|frame)\.(?:getByTestId|getByRole|getByLabel|getByText|getByPlaceholder|getByAltText|getByTitle|locator)\(${STRING}(?:, ${OPTIONS})?\)$`);

/** Whether a locator the engine made may be written into a spec: one call of string literals, nothing else. */
export function isWritableLocator(source: string): boolean {
  return source.length <= 600 && WRITABLE.test(source);
}

/**
 * What a Reject keeps from being proposed again: the call site, both locators and the page's state. The state is
 * the change in words, which the engine writes from the old fingerprint and the healed element's own (heals.json
 * keeps the candidates' descriptions, not their fingerprints): the same element, changed the same way.
 */
export function healKey(heal: Pick<CaseHeal, 'site' | 'oldLocator' | 'newLocator' | 'change'>): string {
  const state = createHash('sha256').update(heal.change).digest('hex');
  const { file, line, column, locator } = heal.site;
  return createHash('sha256').update(JSON.stringify([file, line, column, locator, heal.oldLocator, heal.newLocator, state])).digest('hex').slice(0, 40);
}

export type LineEdit = { ok: true; text: string } | { ok: false; why: string };

/**
 * The file with `oldText` replaced by `newText` on line `line` (from 1): only when the line holds it exactly once.
 * Line ends (`\n`, `\r\n`) are kept as they were.
 */
export function replaceOnLine(text: string, file: string, line: number, oldText: string, newText: string): LineEdit {
  const lines = text.split('\n');
  const at = line - 1;
  if (at < 0 || at >= lines.length) return { ok: false, why: `${file} has no line ${line}` };
  const found = lines[at]!.split(oldText).length - 1;
  if (found === 0) return { ok: false, why: `line ${line} of ${file} does not hold the old locator as the engine printed it (written another way, or changed since)` };
  if (found > 1) return { ok: false, why: `line ${line} of ${file} holds the old locator ${found} times: which one healed is not known` };
  lines[at] = lines[at]!.replace(oldText, () => newText);
  return { ok: true, text: lines.join('\n') };
}
