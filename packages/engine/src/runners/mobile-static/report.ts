/** The mobile app analysis in a report: the app's facts and permissions, then its findings by rule. */
import { escapeHtml as e } from '../../reporters/html/escape.ts';
import { findingsBody, findingsVerdict, riskCards, riskList } from '../../reporters/html/kind-findings.ts';
import type { KindReport } from '../../reporters/html/kind-report.ts';
import { badge, cards, section, table } from '../../reporters/html/parts.ts';
import type { SummaryOf } from '../../types.ts';
import { DANGEROUS_PERMISSIONS } from './android.ts';

type MobileSummary = SummaryOf<'mobile-static'>;
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

function mobileAppBody(s: MobileSummary): string {
  const blocks: string[] = [];
  const facts = (list: [string, string][]) =>
    `<div class="box"><dl class="meta">${list.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl></div>`;
  const android = rec(s.app.android);
  const ios = rec(s.app.ios);
  if (Object.keys(android).length) blocks.push(facts(androidFacts(android)) + permissions(android));
  if (Object.keys(ios).length) blocks.push(facts(iosFacts(ios)));
  return blocks.length ? section('App', blocks.join('')) : '';
}

export const report: KindReport<'mobile-static'> = {
  kind: 'mobile-static',
  verdict: (r, s) => findingsVerdict(r, s.findings, 'finding', 'No findings'),
  keyFigure: (_r, s) => riskList(s.findings, 'finding') || 'no findings',
  body: (_r, s, opts) => cards(riskCards(s.findings, null)) + mobileAppBody(s) + findingsBody(s.findings, opts, 'Findings by rule', 'Where'),
};
