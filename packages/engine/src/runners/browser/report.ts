/** Browser tests in a report: their cases, then the screenshots Playwright took that no case claims. */
import { escapeHtml as e } from '../../reporters/html/escape.ts';
import { casesReport } from '../../reporters/html/kind-cases.ts';
import { section } from '../../reporters/html/parts.ts';
import type { RenderOptions } from '../../reporters/html/render-options.ts';
import type { RunReport } from '../../reporters/types.ts';
import type { SummaryOf } from '../../types.ts';
import { healedSection } from './healing/heal-report.ts';
import { cloudCellsSection, matrixSection } from './matrix-report.ts';

/** Screenshots the runner wrote but did not tie to a case (Playwright's failure screenshots today). */
function looseScreenshots(r: RunReport, opts: RenderOptions): string {
  const tied = new Set(r.summary && 'cases' in r.summary ? (r.summary.cases ?? []).map((c) => c.screenshot).filter(Boolean) : []);
  const loose = r.artifacts.filter((a) => a.kind === 'screenshot' && ![...tied].some((t) => t && (a.path === t || a.path.endsWith(`/${t}`))));
  if (!loose.length) return '';
  const shown = loose.slice(0, opts.condensed ? 0 : loose.length);
  const figures = shown
    .map((a) => {
      const uri = opts.image?.(a.path);
      const caption = a.label ?? a.path.split('/').slice(-2).join(' / ');
      return uri
        ? `<figure><div class="shot-frame"><img class="shot" src="${e(uri)}" alt="${e(caption)}"></div><figcaption>${e(caption)}</figcaption></figure>`
        : `<figure><figcaption>${e(caption)}: in the zip report</figcaption></figure>`;
    })
    .join('');
  if (!figures) return `<p class="muted">${loose.length} screenshots in the test's own report.</p>`;
  return section(`Screenshots (${loose.length})`, `<div class="shots">${figures}</div>`);
}

/**
 * The cases, with the locators healed first (decision 0101), the engines × devices matrix over them when the test
 * ran on several cells, and its cloud cells.
 */
export const report = casesReport('browser', 'case', looseScreenshots, (s) => healedSection(s.cases) + matrixSection(s.cases) + cloudCellsSection((s as SummaryOf<'browser'>).cloudCells));
