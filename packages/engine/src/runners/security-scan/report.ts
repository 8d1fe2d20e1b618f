/**
 * The security scan in a report: alerts by rule, the false positives apart, and its "Scan coverage" section (which
 * attack modules ran, what each attacked, what went wrong).
 */
import { escapeHtml as e } from '../../reporters/html/escape.ts';
import { falsePositivesBody, findingsBody, findingsVerdict, riskCards, riskList } from '../../reporters/html/kind-findings.ts';
import type { KindReport } from '../../reporters/html/kind-report.ts';
import { badge, cards, longText, section, table } from '../../reporters/html/parts.ts';
import type { ScanCoverage, ScanModuleCoverage } from './facts.ts';

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

function resultBadge(m: ScanModuleCoverage, leftOut: number): string {
  switch (m.status) {
    case 'finished':
      return leftOut ? badge(`finished, ${leftOut} URL${leftOut === 1 ? '' : 's'} left out`, 'b-error') : badge('finished', 'b-passed');
    case 'crashed':
      return badge('crashed', 'b-failed');
    case 'time-limit':
      return badge('out of time', 'b-error');
    case 'not-run':
      return badge('did not run', 'b-failed');
  }
}

function scanCoverageBody(coverage: ScanCoverage | undefined): string {
  if (!coverage) return '';
  const lead = coverage.complete
    ? '<p>Every attack module ran to the end on every URL and form the scanner found.</p>'
    : `<p><b>Incomplete.</b> ${e(capitalized(coverage.incomplete ?? 'part of the site was not attacked'))}.</p>`;
  const crawl = coverage.crawlStoppedAtTimeLimit
    ? '<p class="muted small">The crawl stopped at the scan\'s time limit: the modules attacked the URLs it had found by then. A longer scan time (maxScanSeconds) finds more.</p>'
    : '';
  const modules = table(
    ['Module', 'Result', 'Runs', 'URLs attacked'],
    coverage.modules.map((m) => {
      const leftOut = coverage.errors.filter((x) => x.module === m.name && x.retried).length;
      const label = MODULE_LABELS[m.name];
      return [`${e(m.name)}${label ? `<br><span class="muted small">${e(label)}</span>` : ''}`, resultBadge(m, m.status === 'finished' ? leftOut : 0), String(m.runs), String(m.attacked)];
    }),
    [2, 3],
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
  return section('Scan coverage', lead + crawl + modules + errors + targets, 'scan-coverage');
}

export const report: KindReport<'security-scan'> = {
  kind: 'security-scan',
  verdict: (r, s) => findingsVerdict(r, s.findings, 'alert', 'No alerts found'),
  keyFigure: (_r, s) => riskList(s.findings, 'alert') || 'no alerts',
  body: (r, s, opts) =>
    cards(riskCards(s.findings, r.falsePositives ?? [], 'alert')) +
    findingsBody(s.findings, opts, 'Alerts by rule') +
    falsePositivesBody(r.falsePositives ?? [], opts) +
    scanCoverageBody(s.coverage),
  // A scan that ran but did not attack everything it should have (docs/decisions/0058).
  partial(s) {
    if (!s.coverage || s.coverage.complete) return null;
    const why = s.coverage.incomplete ?? 'part of the site was not attacked';
    return { verdict: `Incomplete scan: ${why}`, errorTitle: 'Why the scan is incomplete', keyFigure: `incomplete${s.findings.length ? `: ${riskList(s.findings)}` : ''}` };
  },
};
