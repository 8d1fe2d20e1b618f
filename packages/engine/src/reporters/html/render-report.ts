/** The html report of one test run: header and verdict, summary cards, the kind's own sections, an appendix. */
import { reportOf } from '../../runners/reports.ts';
import type { RunReport } from '../types.ts';
import { formatDuration } from '../format.ts';
import { timeTag } from '../report-time.ts';
import { appendix, artifactsBlock, attemptsBlock } from './appendix.ts';
import { escapeHtml as e } from './escape.ts';
import { pre, section } from './parts.ts';
import type { RenderOptions } from './render-options.ts';
import { REPORT_STYLE } from './styles.ts';
import { errorTitle, kindLabel, verdict } from './verdict.ts';

export function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${e(title)}</title><style>${REPORT_STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>\n`
  );
}

/** The kind's own sections, without header or appendix: shared with the run report. */
export function kindBody(r: RunReport, opts: RenderOptions): string {
  const error = r.error ? section(errorTitle(r), pre(r.error)) : '';
  // The kind's sections come from its folder's report.ts.
  return error + (r.summary ? (reportOf(r.summary)?.body(r, r.summary, opts) ?? '') : '');
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
    eyebrow: `${kindLabel(r.kind)} · ${r.group}`,
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
