/**
 * Which pages of a survey the starter suite tests, and which of them get its Lighthouse and visual tests: one rule,
 * read by the survey (it visits the visual tests' pages twice, to find what to mask: changing-elements.ts) and by
 * the server that writes the suite (apps/server/src/features/suites/suite-proposal.ts).
 */
import type { Device } from '../runners/browser/matrix.ts';
import type { SiteSurvey, SurveyedPage } from './survey-types.ts';

/** Lighthouse and visual tests take this many of the most linked pages (the home page first). */
export const TOP_PAGES = 3;
/** The devices a starter suite's visual tests shoot on; the survey looks for what changes on each. */
export const STARTER_VISUAL_DEVICES = ['desktop', 'phone'] as const satisfies readonly Device[];

export interface LeftOutPage {
  path: string;
  reason: string;
}

/** The pages a starter suite tests: those that loaded as HTML below 400, each once (a redirect's target once). */
export function pagesToTest(survey: Pick<SiteSurvey, 'pages'>): { pages: SurveyedPage[]; leftOut: LeftOutPage[] } {
  const pages: SurveyedPage[] = [];
  const leftOut: LeftOutPage[] = [];
  const seen = new Set<string>();
  for (const p of survey.pages) {
    if (p.error || p.status === null) leftOut.push({ path: p.path, reason: `did not load: ${p.error ?? 'no answer'}` });
    else if (p.status >= 400) leftOut.push({ path: p.path, reason: `answered ${p.status}` });
    else if (!p.html) leftOut.push({ path: p.path, reason: 'not an HTML page' });
    else if (p.finalPath !== p.path && (seen.has(p.finalPath) || survey.pages.some((q) => q.path === p.finalPath))) leftOut.push({ path: p.path, reason: `redirects to ${p.finalPath}` });
    else if (!seen.has(p.path)) {
      seen.add(p.path);
      pages.push(p);
    }
  }
  return { pages, leftOut };
}

/** The home page first, then the most linked (ties: the order found). */
export function topPages(pages: SurveyedPage[], count = TOP_PAGES): SurveyedPage[] {
  const home = pages.find((p) => p.path === '/');
  const rest = pages.filter((p) => p !== home).sort((a, b) => b.inbound - a.inbound);
  return [...(home ? [home] : []), ...rest].slice(0, count);
}
