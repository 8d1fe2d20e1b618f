/** Accessibility runs in a report: violations grouped by rule, with impact, help, affected elements and WCAG reference. */
import { formatCount } from '../../reporters/format.ts';
import { escapeHtml as e, safeLink } from '../../reporters/html/escape.ts';
import type { KindReport } from '../../reporters/html/kind-report.ts';
import { IMPACTS, badge, card, cards, longText, pre, section, statusBadge, table } from '../../reporters/html/parts.ts';
import type { RenderOptions } from '../../reporters/html/render-options.ts';
import type { SummaryOf } from '../../types.ts';
import { cellLabel } from '@fullstop/contracts';
import { matrixSection } from '../browser/matrix-report.ts';

type Summary = SummaryOf<'accessibility'>;
type Page = Summary['pages'][number];

const MAX_TARGETS = 10;

/** axe's tags in words: wcag2aa -> WCAG 2 AA, wcag21a -> WCAG 2.1 A, wcag143 -> WCAG 1.4.3. */
export function wcagLabel(tag: string): string | null {
  const level = /^wcag(\d)(\d?)(a{1,3})$/i.exec(tag);
  if (level) return `WCAG ${level[1]}${level[2] ? `.${level[2]}` : ''} ${level[3]!.toUpperCase()}`;
  const criterion = /^wcag(\d)(\d)(\d{1,2})$/i.exec(tag);
  if (criterion) return `WCAG ${criterion[1]}.${criterion[2]}.${criterion[3]}`;
  if (tag === 'best-practice') return 'Best practice';
  return null;
}

interface Rule {
  id: string;
  impact: string;
  help: string;
  helpUrl?: string;
  tags: string[];
  pages: { url: string; cell?: string; nodes: number; targets: string[] }[];
}

const rank = (impact: string) => {
  const i = IMPACTS.indexOf(impact as (typeof IMPACTS)[number]);
  return i < 0 ? IMPACTS.length : i;
};

export function groupViolations(pages: Page[]): Rule[] {
  const rules = new Map<string, Rule>();
  for (const p of pages) {
    for (const v of p.violations ?? []) {
      const rule = rules.get(v.id) ?? { id: v.id, impact: v.impact, help: v.help, tags: [], pages: [] };
      if (rank(v.impact) < rank(rule.impact)) rule.impact = v.impact;
      rule.helpUrl ??= v.helpUrl;
      for (const t of v.tags ?? []) if (!rule.tags.includes(t)) rule.tags.push(t);
      rule.pages.push({ url: p.url, ...(p.cell ? { cell: p.cell } : {}), nodes: v.nodes, targets: v.targets ?? [] });
      rules.set(v.id, rule);
    }
  }
  const nodes = (r: Rule) => r.pages.reduce((s, p) => s + p.nodes, 0);
  return [...rules.values()].sort((a, b) => rank(a.impact) - rank(b.impact) || nodes(b) - nodes(a) || a.id.localeCompare(b.id));
}

function ruleBox(r: Rule, opts: RenderOptions): string {
  const total = r.pages.reduce((s, p) => s + p.nodes, 0);
  const wcag = [...new Set(r.tags.map(wcagLabel).filter((t): t is string => t !== null))];
  const pages = (opts.condensed ? r.pages.slice(0, 3) : r.pages)
    .map((p) => {
      const shown = p.targets.slice(0, MAX_TARGETS);
      const more = p.targets.length - shown.length;
      const list = shown.length
        ? `<ul class="targets">${shown.map((t) => `<li><code>${e(t)}</code></li>`).join('')}${more > 0 ? `<li class="muted">and ${more} more</li>` : ''}</ul>`
        : '';
      const cell = p.cell ? ` <span class="muted">(${e(cellLabel(p.cell))})</span>` : '';
      return `<div class="small"><span class="muted">${e(formatCount(p.nodes, 'element'))} on</span> ${longText(p.url)}${cell}${list}</div>`;
    })
    .join('');
  const hidden = opts.condensed && r.pages.length > 3 ? `<p class="muted small">and ${r.pages.length - 3} more pages</p>` : '';
  return (
    `<div class="box"><div class="box-head">${badge(r.impact, `i-${r.impact}`)}<span class="name">${e(r.help)}</span>` +
    `<span class="muted small">${e(formatCount(total, 'element'))}, ${e(formatCount(r.pages.length, 'page'))}</span></div>` +
    `<p class="kv small"><b>Rule</b> <code>${e(r.id)}</code>${wcag.length ? ` · <b>Reference</b> ${e(wcag.join(', '))}` : ''}` +
    `${r.helpUrl ? ` · ${safeLink(r.helpUrl, 'How to fix')}` : ''}</p>${pages}${hidden}</div>`
  );
}

export function accessibilityCards(s: Summary): string[] {
  const sum: Record<string, number> = {};
  for (const p of s.pages) for (const [k, v] of Object.entries(p.violationsByImpact)) sum[k] = (sum[k] ?? 0) + v;
  const failing = s.pages.filter((p) => !p.passed).length;
  return [
    card(`${failing} of ${s.pages.length}`, 'pages failing', failing ? 'bad' : 'ok'),
    ...IMPACTS.map((i) => card(String(sum[i] ?? 0), `${i} rules broken`, (sum[i] ?? 0) > 0 && (i === 'critical' || i === 'serious') ? 'bad' : '')),
  ];
}

/** The cells a test ran its pages in (engine × device × network), in order; none for a test on one cell. */
const cellsOf = (s: Summary) => [...new Set(s.pages.map((p) => p.cell).filter((c): c is string => !!c))];

export function accessibilityBody(s: Summary, opts: RenderOptions): string {
  const rules = groupViolations(s.pages);
  const parts = [cards(accessibilityCards(s))];
  // Several cells: a row per page, a column per cell, and where a page fails on one engine, device or network only.
  if (s.cases) parts.push(matrixSection(s.cases, { whatRan: false }));
  parts.push(section('Violations by rule', rules.length ? rules.map((r) => ruleBox(r, opts)).join('') : '<p>No violations found.</p>'));
  const cells = cellsOf(s).length > 0;
  const rows = [...s.pages]
    .sort((a, b) => Number(a.passed) - Number(b.passed))
    .map((p) => [
      statusBadge(p.passed ? 'passed' : 'failed'),
      longText(p.url),
      ...(cells ? [e(p.cell ? cellLabel(p.cell) : '')] : []),
      e(IMPACTS.filter((i) => (p.violationsByImpact[i] ?? 0) > 0).map((i) => `${p.violationsByImpact[i]} ${i}`).join(', ') || (p.error ? '' : 'none')) +
        (p.error ? pre(p.error, 2000) : '') +
        (p.notReady ? `<div class="muted small">Checked before the page was ready: ${e(p.notReady)}</div>` : ''),
    ]);
  parts.push(section('Pages', table(['Result', 'Page', ...(cells ? ['Cell'] : []), 'Rules broken'], rows)));
  return parts.join('');
}

export const report: KindReport<'accessibility'> = {
  kind: 'accessibility',
  verdict(_r, s) {
    const failing = s.pages.filter((p) => !p.passed).length;
    const cells = cellsOf(s).length;
    // With cells, each page counts once per cell: "3 of 8 pages in 4 cells fail ...".
    const where = cells > 0 ? ` in ${cells} cells` : '';
    if (failing) return `${failing} of ${s.pages.length} pages${where} fail accessibility checks`;
    return s.pages.length === 1 ? 'The page passes accessibility checks' : `All ${s.pages.length} pages${where} pass accessibility checks`;
  },
  keyFigure(_r, s) {
    const rules = new Set(s.pages.flatMap((p) => (p.violations ?? []).map((v) => v.id))).size;
    const cells = cellsOf(s).length;
    const pages = cells > 0 ? new Set(s.pages.map((p) => p.url)).size : s.pages.length;
    return `${rules} ${rules === 1 ? 'rule' : 'rules'} broken on ${pages} ${pages === 1 ? 'page' : 'pages'}${cells > 0 ? ` in ${cells} cells` : ''}`;
  },
  body: (_r, s, opts) => accessibilityBody(s, opts),
};
