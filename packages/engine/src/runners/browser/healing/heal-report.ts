/** A browser test's healed locators in its report (decision 0101): what changed on the site, in a client's words. */
import { escapeHtml as e } from '../../../reporters/html/escape.ts';
import { section } from '../../../reporters/html/parts.ts';
import type { CaseResult } from '../../../types.ts';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Healed: the button's label changed from "Send" to "Send message"." and what the test should say now; '' without heals. */
export function healedSection(cases: readonly CaseResult[]): string {
  const healed = cases.filter((c) => c.healed?.length);
  if (healed.length === 0) return '';
  const items = healed.flatMap((c) =>
    c.healed!.map((h) => {
      const verdict =
        c.status === 'passed'
          ? 'The case passed on the healed locator and is marked healed.'
          : 'The case failed so that a person looks: the site changed, and the test should change with it.';
      const runnerUp = h.runnerUp === null ? 'no other candidate' : `the next best scored ${h.runnerUp.toFixed(2)}`;
      return (
        `<li><p><b>${e(c.name)}</b>: Healed: ${e(capital(h.change))}.</p>` +
        `<p class="small">The test looks for <code>${e(h.oldLocator)}</code> (${e(h.site.file)}, line ${h.site.line}); ` +
        `it was found as <code>${e(h.newLocator)}</code> (score ${h.score.toFixed(2)}, ${e(runnerUp)}). ${e(verdict)}</p></li>`
      );
    }),
  );
  return section(`Healed locators (${items.length})`, `<ul class="heals">${items.join('')}</ul>`);
}
