/** Security scans and mobile static analysis: findings grouped by rule, the worst first. */
import type { Finding } from '../../types.ts';
import { type Alert, countAlerts, groupAlerts } from '../../lib/alerts.ts';
import { countByRisk } from '../../lib/findings.ts';
import { formatCount } from '../format.ts';
import type { RunReport } from '../types.ts';
import { escapeHtml as e } from './escape.ts';
import { RISKS, badge, card, longText, section, table } from './parts.ts';
import type { RenderOptions } from './render-options.ts';

const MAX_INSTANCES = 25;

/**
 * What the risk figures count: a security scan counts alerts as ZAP's "Summary of Alerts" does (one per rule,
 * whatever its number of instances); mobile static analysis counts findings.
 */
export type CountBy = 'alert' | 'finding';

function countsOf(findings: Finding[], by: CountBy): Record<Finding['risk'], number> {
  if (by === 'finding') return countByRisk(findings);
  const { 'False Positives': _falsePositives, ...counts } = countAlerts(findings);
  return counts;
}

/** The number of alerts (rules) or findings: what the verdict says there are. */
export function countOf(findings: Finding[], by: CountBy): number {
  return by === 'alert' ? groupAlerts(findings).length : findings.length;
}

/** `1 High, 2 Medium` (the risks present only). */
export function riskList(findings: Finding[], by: CountBy = 'finding'): string {
  const c = countsOf(findings, by);
  return RISKS.filter((r) => c[r] > 0).map((r) => `${c[r]} ${r}`).join(', ');
}

/** A card per risk; for a scan, a last one with the alerts that have instances marked false positives. */
export function riskCards(findings: Finding[], falsePositives: Finding[] | null, by: CountBy = 'finding'): string[] {
  const c = countsOf(findings, by);
  return [
    ...RISKS.map((r) => card(String(c[r]), r === 'Informational' ? 'informational' : `${r.toLowerCase()} risk`, c[r] > 0 && (r === 'High' || r === 'Medium') ? 'bad' : '')),
    ...(falsePositives !== null ? [card(String(countOf(falsePositives, by)), 'marked false positives')] : []),
  ];
}

/** One alert per rule, the worst first, as ZAP's report lists them, with the instances under each. */
export function groupFindings(findings: Finding[]): Alert[] {
  return groupAlerts(findings);
}

function ruleBox(r: Alert, opts: RenderOptions, where: string): string {
  const limit = opts.condensed ? 5 : MAX_INSTANCES;
  const shown = r.instances.slice(0, limit);
  const rows = shown.map((f) => [longText(f.url ?? '–'), e(f.param ?? ''), f.evidence ? `<code>${e(f.evidence.slice(0, 500))}</code>` : '']);
  const more = r.instances.length - shown.length;
  return (
    `<div class="box"><div class="box-head">${badge(r.risk, `r-${r.risk}`)}<span class="name">${e(r.name)}</span>` +
    `<span class="muted small">${e(formatCount(r.instances.length, 'instance'))}</span></div>` +
    `<p class="kv small"><b>Rule</b> <code>${e(r.ruleId)}</code></p>` +
    (r.description ? `<p class="kv"><b>What it means:</b> ${e(r.description)}</p>` : '') +
    (r.solution ? `<p class="kv"><b>How to fix:</b> ${e(r.solution)}</p>` : '') +
    table([where, 'Parameter', 'Evidence'], rows) +
    (more > 0 ? `<p class="muted small">and ${more} more in the json report</p>` : '') +
    `</div>`
  );
}

export function findingsBody(findings: Finding[], opts: RenderOptions, title: string, where = 'Affected URL'): string {
  const rules = groupFindings(findings);
  return section(title, rules.length ? rules.map((r) => ruleBox(r, opts, where)).join('') : '<p>No alerts found.</p>');
}

/** The instances an operator set aside, one alert per rule with its instances under it, as the alerts above. */
export function falsePositivesBody(findings: Finding[], opts: RenderOptions = {}): string {
  if (!findings.length) return '';
  const alerts = groupFindings(findings);
  const boxes = alerts.map(({ description: _d, solution: _s, ...alert }) => ruleBox(alert, opts, 'Affected URL')).join('');
  return section(
    `Marked as false positives (${formatCount(alerts.length, 'alert')}, ${formatCount(findings.length, 'instance')})`,
    `<p class="muted small">Reviewed and set aside by an operator; not counted above.</p>${boxes}`,
  );
}

/** The verdict of a run that reports findings: how many, and of which risks. `none` says there are none. */
export function findingsVerdict(r: RunReport, findings: Finding[], by: CountBy, none: string): string {
  if (!findings.length) return none;
  const count = countOf(findings, by);
  const n = `${count} ${by}${count === 1 ? '' : 's'}`;
  return `${r.status === 'failed' ? 'Failed' : 'Passed'} with ${n}: ${riskList(findings, by)}`;
}
