/** The html report of one test run: header and verdict, summary cards, the kind's own sections, an appendix. */
import type { RunReport } from '../types.ts';
import { formatDuration } from '../format.ts';
import { timeTag } from '../report-time.ts';
import { appendix, artifactsBlock, attemptsBlock } from './appendix.ts';
import { escapeHtml as e } from './escape.ts';
import { accessibilityBody } from './kind-accessibility.ts';
import { casesBody } from './kind-cases.ts';
import { falsePositivesBody, findingsBody, mobileAppBody, riskCards } from './kind-findings.ts';
import { lighthouseBody } from './kind-lighthouse.ts';
import { loadBody } from './kind-load.ts';
import { scanCoverageBody } from './kind-scan-coverage.ts';
import { card, cards, pre, section } from './parts.ts';
import type { RenderOptions } from './render-options.ts';
import { REPORT_STYLE } from './styles.ts';
import { errorTitle, KIND_LABELS, verdict } from './verdict.ts';

export function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${e(title)}</title><style>${REPORT_STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>\n`
  );
}

function casesCards(r: RunReport): string[] {
  const t = r.totals;
  return [
    card(String(t.failedTests), 'failed', t.failedTests ? 'bad' : ''),
    card(String(t.passedTests), 'passed', t.passedTests && !t.failedTests ? 'ok' : ''),
    card(String(t.skippedTests), 'skipped'),
    card(String(t.totalTests), 'in total'),
  ];
}

/** Screenshots the runner wrote but did not tie to a case (Playwright's failure screenshots today). */
function looseScreenshots(r: RunReport, opts: RenderOptions): string {
  const tied = new Set(r.summary && 'cases' in r.summary ? r.summary.cases.map((c) => c.screenshot).filter(Boolean) : []);
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

/** The kind's own sections, without header or appendix: shared with the run report. */
export function kindBody(r: RunReport, opts: RenderOptions): string {
  const parts: string[] = [];
  const s = r.summary;
  if (r.error) parts.push(section(errorTitle(r), pre(r.error)));
  if (!s) return parts.join('');
  switch (s.kind) {
    case 'browser':
      parts.push(cards(casesCards(r)), casesBody(s.cases, opts, 'case'), looseScreenshots(r, opts));
      break;
    case 'api':
    case 'security-checks':
      parts.push(cards(casesCards(r)), casesBody(s.cases, opts, 'check'));
      break;
    case 'load':
      parts.push(loadBody(s));
      break;
    case 'lighthouse':
      parts.push(lighthouseBody(s, opts));
      break;
    case 'accessibility':
      parts.push(accessibilityBody(s, opts));
      break;
    case 'security-scan':
      parts.push(
        cards(riskCards(s.findings, r.falsePositives ?? [], 'alert')),
        findingsBody(s.findings, opts, 'Alerts by rule'),
        falsePositivesBody(r.falsePositives ?? [], opts),
        scanCoverageBody(s.coverage),
      );
      break;
    case 'mobile-static':
      parts.push(cards(riskCards(s.findings, null)), mobileAppBody(s), findingsBody(s.findings, opts, 'Findings by rule', 'Where'));
      break;
  }
  return parts.join('');
}

export function header(opts: { eyebrow: string; title: string; verdict: string; tone: string; meta: [string, string][] }): string {
  const meta = opts.meta.map(([k, v]) => `<dt>${e(k)}</dt><dd>${v}</dd>`).join('');
  return (
    `<header class="report t-${e(opts.tone)}"><p class="eyebrow">${e(opts.eyebrow)}</p><h1>${e(opts.title)}</h1>` +
    `<p class="verdict">${e(opts.verdict)}</p><dl class="meta">${meta}</dl></header>`
  );
}

export function footer(runId: string): string {
  // Each time names its zone (UTC in the file, the reader's own once the portal serves it): no note needed here.
  return `<footer>Fullstop QA · run ${e(runId)}</footer>`;
}

/** A whole page for one test run. `logs[i]` is the log of `attempts[i]`, shown collapsed in the appendix. */
export function renderReportHtml(r: RunReport, opts: RenderOptions & { logs?: string[] } = {}): string {
  const head = header({
    eyebrow: `${KIND_LABELS[r.kind] ?? r.kind} · ${r.group}`,
    title: r.testName,
    verdict: verdict(r),
    tone: r.status,
    meta: [
      ['Client', e(r.clientName)],
      ['Target', e(r.target || '–')],
      ['Started', timeTag(r.startedAt)],
      ['Duration', e(formatDuration(r.durationMs))],
    ],
  });
  const body = head + kindBody(r, opts) + appendix(attemptsBlock(r, opts.logs) + artifactsBlock(r)) + footer(r.runId);
  return page(`${r.testName}: ${verdict(r)} · ${r.clientName}`, body);
}
