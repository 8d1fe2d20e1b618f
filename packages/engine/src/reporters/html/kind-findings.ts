/** Security scans and mobile static analysis: findings grouped by rule, the worst first. */
import type { Finding, RunnerSummary } from '../../types.ts';
import { type Alert, countAlerts, groupAlerts } from '../../lib/alerts.ts';
import { DANGEROUS_PERMISSIONS } from '../../runners/mobile-static/android.ts';
import { formatCount } from '../format.ts';
import { escapeHtml as e } from './escape.ts';
import { RISKS, badge, card, longText, section, table } from './parts.ts';
import type { RenderOptions } from './render-options.ts';

const MAX_INSTANCES = 25;

export function countByRisk(findings: Finding[]): Record<Finding['risk'], number> {
  const out = { High: 0, Medium: 0, Low: 0, Informational: 0 };
  for (const f of findings) out[f.risk] = (out[f.risk] ?? 0) + 1;
  return out;
}

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

type MobileSummary = Extract<RunnerSummary, { kind: 'mobile-static' }>;
const rec = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);

function androidFacts(a: Record<string, unknown>): [string, string][] {
  const sdk = rec(a.usesSdk);
  const app = rec(a.application);
  const version = [str(a.versionName), a.versionCode !== undefined ? `(build ${str(a.versionCode)})` : ''].filter(Boolean).join(' ');
  return [
    ['Platform', 'Android'],
    ['App name', str(app.label) ?? str(a.label) ?? str(a.name) ?? '–'],
    ['Package', str(a.package) ?? '–'],
    ['Version', version || '–'],
    ['Minimum SDK', str(sdk.minSdkVersion) ? `API ${str(sdk.minSdkVersion)}` : '–'],
    ['Target SDK', str(sdk.targetSdkVersion) ? `API ${str(sdk.targetSdkVersion)}` : '–'],
  ];
}

function iosFacts(i: Record<string, unknown>): [string, string][] {
  const version = [str(i.CFBundleShortVersionString), str(i.CFBundleVersion) ? `(build ${str(i.CFBundleVersion)})` : ''].filter(Boolean).join(' ');
  return [
    ['Platform', 'iOS'],
    ['App name', str(i.CFBundleDisplayName) ?? str(i.CFBundleName) ?? '–'],
    ['Bundle id', str(i.CFBundleIdentifier) ?? '–'],
    ['Version', version || '–'],
    ['Minimum iOS', str(i.MinimumOSVersion) ?? '–'],
  ];
}

function permissions(a: Record<string, unknown>): string {
  const list = (Array.isArray(a.usesPermissions) ? a.usesPermissions : []).map((p) => str(rec(p).name)).filter((p): p is string => !!p);
  if (!list.length) return '<p class="muted">No permissions requested.</p>';
  const sorted = [...list].sort((x, y) => Number(DANGEROUS_PERMISSIONS.has(y)) - Number(DANGEROUS_PERMISSIONS.has(x)) || x.localeCompare(y));
  const rows = sorted.map((p) => [e(p.replace(/^android\.permission\./, '')), DANGEROUS_PERMISSIONS.has(p) ? badge('asks the user', 'r-Medium') : '<span class="muted">normal</span>']);
  return `<h3>Permissions (${list.length})</h3>${table(['Permission', 'Kind'], rows)}`;
}

export function mobileAppBody(s: MobileSummary): string {
  const blocks: string[] = [];
  const facts = (list: [string, string][]) =>
    `<div class="box"><dl class="meta">${list.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl></div>`;
  const android = rec(s.app.android);
  const ios = rec(s.app.ios);
  if (Object.keys(android).length) blocks.push(facts(androidFacts(android)) + permissions(android));
  if (Object.keys(ios).length) blocks.push(facts(iosFacts(ios)));
  return blocks.length ? section('App', blocks.join('')) : '';
}

