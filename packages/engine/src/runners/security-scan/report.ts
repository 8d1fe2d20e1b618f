/**
 * The security scan in a report: alerts by rule, the false positives apart, and its "Scan coverage" section (which
 * attack modules ran, what each attacked, what went wrong).
 */
import { escapeHtml as e } from '../../reporters/html/escape.ts';
import { falsePositivesBody, findingsBody, findingsVerdict, riskCards, riskList } from '../../reporters/html/kind-findings.ts';
import type { KindReport } from '../../reporters/html/kind-report.ts';
import { badge, cards, longText, section, table } from '../../reporters/html/parts.ts';
import type { PassivePage, ScanCallCoverage, ScanCoverage, ScanModuleCoverage } from './facts.ts';

/** What each wapiti module looks for, in a reader's words. */
const MODULE_LABELS: Record<string, string> = {
  xss: 'Cross-site scripting',
  permanentxss: 'Stored cross-site scripting',
  sql: 'SQL injection',
  blindsql: 'Blind SQL injection',
  exec: 'Command execution',
  file: 'File disclosure and path traversal',
  redirect: 'Open redirect',
  crlf: 'CRLF injection',
  xxe: 'XML external entities',
  backup: 'Backup files',
  htaccess: 'Access control bypass (.htaccess)',
  methods: 'Unusual HTTP methods',
  shellshock: 'Shellshock',
  buster: 'Hidden files and folders',
  csrf: 'Cross-site request forgery',
  brute_login_form: 'Weak login passwords',
};

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A path that fits wraps at its spaces only; a long one may break anywhere rather than widen the table. */
const shortOrLong = (s: string) => (s.length > 24 ? longText(s) : e(s));

function resultBadge(m: ScanModuleCoverage): string {
  switch (m.status) {
    case 'finished':
      return m.leftOut ? badge(`stopped at ${m.leftOut} URL${m.leftOut === 1 ? '' : 's'}, finished the rest`, 'b-error') : badge('finished', 'b-passed');
    case 'crashed':
      return badge('crashed', 'b-failed');
    case 'time-limit':
      return badge('out of time', 'b-error');
    case 'not-run':
      return badge('did not run', 'b-failed');
  }
}

/** "12.3 s", or a dash for a module that never ran (or a summary from before modules were timed). */
const secondsText = (s: number | undefined) => (s === undefined ? '–' : `${s} s`);

function callBadge(c: ScanCallCoverage): string {
  switch (c.status) {
    case 'finished':
      return badge('attacked', 'b-passed');
    case 'time-limit':
      return badge('out of time', 'b-error');
    case 'failed':
      return badge('stopped', 'b-failed');
    case 'not-run':
      return badge('did not run', 'b-failed');
  }
}

/** The JSON calls the pages made and how far sqlmap got with each. */
function callsBody(calls: ScanCallCoverage[] | undefined): string {
  if (!calls) return '';
  if (calls.length === 0) return '<p class="muted small">No JSON call was found for sqlmap to attack.</p>';
  return `<h3>JSON calls attacked (sqlmap)</h3>${table(
    ['Method', 'URL', 'Fields', 'Result', 'Time'],
    calls.map((c) => [e(c.method), shortOrLong(pathOf(c.url)), e(c.params.join(', ')), `${callBadge(c)}${c.error ? `<br><span class="muted small">${e(c.error)}</span>` : ''}`, e(secondsText(c.seconds))]),
    [4],
  )}`;
}

/** "3 URLs and forms with parameters (wapiti) and 2 JSON calls (sqlmap)". */
function attackedText(a: NonNullable<ScanCoverage['attacked']>): string {
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  return `${n(a.targets, 'URL or form', 'URLs and forms')} with parameters (wapiti) and ${n(a.calls, 'JSON call', 'JSON calls')} (sqlmap)`;
}

function scanCoverageBody(coverage: ScanCoverage | undefined): string {
  if (!coverage) return '';
  const progress = coverage.progress ? ` ${e(capitalized(coverage.progress))}.` : '';
  const attacked = coverage.attacked ? ` Attacked: ${e(attackedText(coverage.attacked))}.` : '';
  const lead = coverage.nothingToAttack
    ? `<p><b>Nothing to attack:</b> ${e(coverage.nothingToAttack)}. No alert here says the site is safe: nothing was attacked.${progress}</p>`
    : coverage.complete
      ? `<p>Every attack module ran to the end on every URL and form the scanner found.${attacked}${progress}</p>`
      : `<p><b>Incomplete:</b> ${e(coverage.incomplete ?? 'part of the site was not attacked')}.${attacked}${progress}</p>`;
  const time = coverage.time
    ? `<p class="muted small">${e(`Time: ${coverage.time.totalSeconds} s of a ${coverage.time.budgetSeconds} s budget (maxScanSeconds), the crawl ${coverage.time.crawlSeconds} s.`)}</p>`
    : '';
  const crawl = coverage.crawlStoppedAtTimeLimit
    ? '<p class="muted small">The crawl stopped at the scan\'s time limit: the modules attacked the URLs it had found by then. A longer scan time (maxScanSeconds) finds more.</p>'
    : '';
  const modules = table(
    ['Module', 'Result', 'Runs', 'URLs attacked', 'Time'],
    coverage.modules.map((m) => {
      const label = MODULE_LABELS[m.name];
      return [`${e(m.name)}${label ? `<br><span class="muted small">${e(label)}</span>` : ''}`, resultBadge(m), String(m.runs), String(m.attacked), e(secondsText(m.seconds))];
    }),
    [2, 3, 4],
  );
  const errors = coverage.errors.length
    ? `<h3>What went wrong</h3>${table(
        ['Module', 'Error', 'Where', 'Then'],
        coverage.errors.map((x) => [
          e(x.module),
          e(x.error),
          x.url ? `${shortOrLong(`${x.method ? `${x.method} ` : ''}${pathOf(x.url)}`)}${x.params?.length ? `<br><span class="muted small">${e(`parameters: ${x.params.join(', ')}`)}</span>` : ''}` : '–',
          e(x.retried ? 'Run again without that URL' : 'Not run again'),
        ]),
      )}`
    : '';
  const all = coverage.modules.map((m) => m.name);
  const targets = coverage.targets.length
    ? `<h3>URLs and parameters attacked</h3>${table(
        ['Method', 'URL', 'Parameters', 'Attacked by'],
        coverage.targets.map((t) => {
          const missing = all.filter((m) => !t.modules.includes(m));
          const by = missing.length === 0 ? `all ${all.length} modules` : t.modules.length ? `${t.modules.join(', ')} (not ${missing.join(', ')})` : 'none';
          return [e(t.method), shortOrLong(pathOf(t.url)), e(t.params.join(', ')), missing.length ? `<b>${e(by)}</b>` : e(by)];
        }),
      )}`
    : '<p class="muted small">The scanner found no URL or form with parameters to attack.</p>';
  return section('Scan coverage', lead + time + crawl + modules + errors + targets + callsBody(coverage.calls), 'scan-coverage');
}

/** The pages and responses the passive checks read, and which checks applied to each (said once when the same for all). */
function passiveBody(pages: PassivePage[] | undefined): string {
  if (!pages) return '';
  const read = `The passive checks read ${pages.length} response${pages.length === 1 ? '' : 's'}: a page or call not listed here was not judged.`;
  if (pages.length === 0) return section('What the passive checks judged', `<p>${e(read)}</p>`, 'passive-pages');
  const same = pages.every((p) => p.checks.join() === pages[0]!.checks.join());
  const lead = `<p>${e(read)}${same ? ` ${e(`Checks on each: ${pages[0]!.checks.join(', ')}.`)}` : ''}</p>`;
  const head = same ? ['URL', 'Answer', 'Alerts'] : ['URL', 'Answer', 'Checks', 'Alerts'];
  const rows = pages.map((p) => [
    shortOrLong(pathOf(p.url)),
    e(`${p.status} ${p.contentType || ''}`.trim()),
    ...(same ? [] : [`<span class="small">${e(p.checks.join(', '))}</span>`]),
    String(p.findings),
  ]);
  return section('What the passive checks judged', lead + table(head, rows, [head.length - 1]), 'passive-pages');
}

/** What an incomplete scan did not attack, as its status says it: "incomplete: sql did not finish on GET /go (url)". */
const incompleteText = (coverage: ScanCoverage) => `incomplete: ${coverage.incomplete ?? 'part of the site was not attacked'}`;
const isIncomplete = (coverage: ScanCoverage | undefined): coverage is ScanCoverage => Boolean(coverage && !coverage.complete);

export const report: KindReport<'security-scan'> = {
  kind: 'security-scan',
  // A scan failed by its findings may be incomplete too: the verdict says both.
  verdict: (r, s) => {
    const nothing = Boolean(s.coverage?.nothingToAttack);
    const shortfall = isIncomplete(s.coverage) ? ` (${incompleteText(s.coverage)})` : nothing ? ' (nothing to attack)' : '';
    return `${findingsVerdict(r, s.findings, 'alert', 'No alerts found')}${shortfall}`;
  },
  keyFigure: (_r, s) => `${riskList(s.findings, 'alert') || 'no alerts'}${isIncomplete(s.coverage) ? `; ${incompleteText(s.coverage)}` : ''}`,
  body: (r, s, opts) =>
    cards(riskCards(s.findings, r.falsePositives ?? [], 'alert')) +
    findingsBody(s.findings, opts, 'Alerts by rule') +
    falsePositivesBody(r.falsePositives ?? [], opts) +
    scanCoverageBody(s.coverage) +
    passiveBody(s.passive),
  // Incomplete and nothing over the thresholds: its own verdict, with its findings (docs/decisions/0058).
  partial(s) {
    const alerts = riskList(s.findings, 'alert');
    // Nothing attacked and nothing over the thresholds: no verdict, never "No alerts found" (issue 38).
    if (s.coverage?.nothingToAttack && s.coverage.complete) {
      return {
        verdict: `Nothing to attack: ${s.coverage.nothingToAttack}`,
        errorTitle: 'Why the scan attacked nothing',
        keyFigure: `nothing to attack${alerts ? `; ${alerts} (passive checks)` : ''}`,
      };
    }
    if (!isIncomplete(s.coverage)) return null;
    return {
      verdict: `Incomplete scan: ${s.coverage.incomplete ?? 'part of the site was not attacked'}${s.coverage.progress ? `. ${s.coverage.progress}` : ''}`,
      errorTitle: 'Why the scan is incomplete',
      keyFigure: `${incompleteText(s.coverage)}${alerts ? `; ${alerts}` : ''}`,
    };
  },
};
