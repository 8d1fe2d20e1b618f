/** Lighthouse runs in a report: the four scores per page as gauges, missed thresholds, and the top opportunities. */
import { formatBytes, formatDuration } from '../../reporters/format.ts';
import { gauge } from '../../reporters/html/charts.ts';
import { escapeHtml as e } from '../../reporters/html/escape.ts';
import type { KindReport } from '../../reporters/html/kind-report.ts';
import { card, cards, pre, section, statusBadge, table } from '../../reporters/html/parts.ts';
import type { RenderOptions } from '../../reporters/html/render-options.ts';
import type { SummaryOf } from '../../types.ts';

type Summary = SummaryOf<'lighthouse'>;

const CATEGORY_LABELS: [string, string][] = [
  ['performance', 'Performance'],
  ['accessibility', 'Accessibility'],
  ['best-practices', 'Best practices'],
  ['seo', 'SEO'],
];

function pageBlock(p: Summary['pages'][number], opts: RenderOptions): string {
  const status = p.error ? 'error' : p.passed === false ? 'failed' : 'passed';
  const gauges = `<div class="gauges">${CATEGORY_LABELS.map(([k, label]) => gauge(p.scores[k], label)).join('')}</div>`;
  const missed = p.failedThresholds?.length ? `<p class="kv"><b>Below threshold:</b> ${e(p.failedThresholds.join(', '))}</p>` : '';
  const top = [...(p.opportunities ?? [])].sort((a, b) => (b.savingsMs ?? 0) - (a.savingsMs ?? 0)).slice(0, opts.condensed ? 3 : 6);
  const opportunities = top.length
    ? `<h3>Top opportunities</h3>` +
      table(
        ['Opportunity', 'Time saved', 'Bytes saved'],
        top.map((o) => [e(o.title), e(o.savingsMs ? formatDuration(o.savingsMs) : '–'), e(o.savingsBytes ? formatBytes(o.savingsBytes) : '–')]),
        [1, 2],
      )
    : p.opportunities && !p.error
      ? `<p class="muted small">Lighthouse suggests no savings for this page.</p>`
      : '';
  return (
    `<div class="box t-${status}"><div class="box-head">${statusBadge(status)}<span class="name">${e(p.url)}</span></div>` +
    gauges +
    (p.auditedAgain ? `<p class="muted small">Lighthouse lost this page load’s trace (${e(String(p.auditedAgain))}) on its first audit; these scores are from a second audit in a new browser.</p>` : '') +
    missed +
    (p.error ? pre(p.error, 2000) : '') +
    opportunities +
    `</div>`
  );
}

function lighthouseBody(s: Summary, opts: RenderOptions): string {
  const below = s.pages.filter((p) => p.passed === false || p.error).length;
  const pages = [...s.pages].sort((a, b) => Number(a.passed !== false && !a.error) - Number(b.passed !== false && !b.error));
  return (
    cards([card(`${below} of ${s.pages.length}`, 'pages below the thresholds', below ? 'bad' : 'ok')]) +
    section('Scores by page', pages.map((p) => pageBlock(p, opts)).join('') || '<p>No pages were audited.</p>') +
    '<p class="muted small">Scores: 90-100 good, 50-89 needs improvement, 0-49 poor.</p>'
  );
}

export const report: KindReport<'lighthouse'> = {
  kind: 'lighthouse',
  verdict(_r, s) {
    const below = s.pages.filter((p) => p.passed === false || p.error).length;
    if (below) return `${below} of ${s.pages.length} pages below the score thresholds`;
    return s.pages.length === 1 ? 'The page meets the score thresholds' : `All ${s.pages.length} pages meet the score thresholds`;
  },
  // The worst score of each category over the pages.
  keyFigure(_r, s) {
    const worst = (k: string) => Math.min(...s.pages.map((p) => p.scores[k] ?? Infinity));
    return (
      CATEGORY_LABELS.map(([k, label]) => [label, worst(k)] as const)
        .filter(([, v]) => Number.isFinite(v))
        .map(([label, v]) => `${label} ${Math.round(v)}`)
        .join(', ') || '–'
    );
  },
  body: (_r, s, opts) => lighthouseBody(s, opts),
};
