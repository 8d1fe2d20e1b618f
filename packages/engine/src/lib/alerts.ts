import type { Finding, Risk } from '../types.ts';

/**
 * Findings as ZAP's report shows them: one alert per rule (ZAP's alert tree groups by alert name and risk; our
 * rule ids stand for one name each), with its instances (URL, parameter, evidence) listed under it.
 */
export interface Alert {
  ruleId: string;
  name: string;
  risk: Risk;
  description?: string;
  solution?: string;
  instances: Finding[];
}

const RISK_ORDER: Record<Risk, number> = { High: 0, Medium: 1, Low: 2, Informational: 3 };

/** Alerts highest risk first, then by name (ZAP's order), each with its instances by URL and parameter. */
export function groupAlerts(findings: readonly Finding[]): Alert[] {
  const byKey = new Map<string, Alert>();
  for (const f of findings) {
    const key = `${f.ruleId}\u0000${f.risk}`;
    let alert = byKey.get(key);
    if (!alert) {
      alert = {
        ruleId: f.ruleId,
        name: f.name,
        risk: f.risk,
        ...(f.description ? { description: f.description } : {}),
        ...(f.solution ? { solution: f.solution } : {}),
        instances: [],
      };
      byKey.set(key, alert);
    }
    alert.instances.push(f);
  }
  const alerts = [...byKey.values()];
  for (const a of alerts) a.instances.sort((x, y) => (x.url ?? '').localeCompare(y.url ?? '') || (x.param ?? '').localeCompare(y.param ?? ''));
  return alerts.sort((a, b) => RISK_ORDER[a.risk] - RISK_ORDER[b.risk] || a.name.localeCompare(b.name) || a.ruleId.localeCompare(b.ruleId));
}

export type AlertCounts = Record<Risk | 'False Positives', number>;

/**
 * What ZAP's report summary ("Summary of Alerts": Risk Level, Number of Alerts) counts: alerts, not instances.
 * An alert counts once at its risk while one of its instances is not a false positive, and once under False
 * Positives while one of them is (ZAP files an instance marked a false positive under a node of its own, risk -1).
 */
export function countAlerts(findings: readonly Finding[], isFalse: (f: Finding) => boolean = () => false): AlertCounts {
  const counts: AlertCounts = { High: 0, Medium: 0, Low: 0, Informational: 0, 'False Positives': 0 };
  for (const alert of groupAlerts(findings)) {
    const marked = alert.instances.filter(isFalse).length;
    if (marked < alert.instances.length) counts[alert.risk]++;
    if (marked > 0) counts['False Positives']++;
  }
  return counts;
}
