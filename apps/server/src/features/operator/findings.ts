import type { OpsFinding } from '@fullstop/contracts';
import type { Finding, RunnerSummary } from '@fullstop/engine';

/** At most this many findings per failing test in the feed: enough to triage, the report holds the rest. */
export const MAX_FINDINGS = 30;

const RISK_ORDER: Record<string, number> = { High: 0, Medium: 1, Low: 2, Informational: 3 };
const IMPACT_ORDER: Record<string, number> = { critical: 0, serious: 1, moderate: 2, minor: 3 };

/**
 * What a failing test's summary names that a bug or a false-positive mark can point at: a security scan's alerts
 * (by rule and URL) and an accessibility run's violations (by rule and page), worst first, each once.
 */
export function findingsOf(summary: RunnerSummary | null | undefined, isFalsePositive: (f: Finding) => boolean): OpsFinding[] {
  if (!summary) return [];
  const seen = new Set<string>();
  const once = (f: OpsFinding) => {
    const key = `${f.source}\n${f.ruleId}\n${f.url ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  if (summary.kind === 'security-scan') {
    return [...summary.findings]
      .sort((a, b) => (RISK_ORDER[a.risk] ?? 9) - (RISK_ORDER[b.risk] ?? 9))
      .map((f): OpsFinding => ({
        source: 'security-alert',
        ruleId: f.ruleId,
        name: f.name,
        severity: f.risk,
        url: f.url ?? null,
        falsePositive: isFalsePositive(f),
      }))
      .filter(once)
      .slice(0, MAX_FINDINGS);
  }
  if (summary.kind === 'accessibility') {
    return summary.pages
      .flatMap((page) =>
        (page.violations ?? []).map((v): OpsFinding => ({ source: 'accessibility', ruleId: v.id, name: v.help, severity: v.impact, url: page.url, falsePositive: false })),
      )
      .sort((a, b) => (IMPACT_ORDER[a.severity] ?? 9) - (IMPACT_ORDER[b.severity] ?? 9))
      .filter(once)
      .slice(0, MAX_FINDINGS);
  }
  return [];
}
