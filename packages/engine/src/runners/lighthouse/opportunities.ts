/** Opportunities kept per page: the ones worth a client's first look. */
export const MAX_OPPORTUNITIES = 5;

/** The parts of a Lighthouse audit read here (its `details` when they are an opportunity table). */
export interface AuditLike {
  title: string;
  score?: number | null;
  scoreDisplayMode?: string;
  details?: { type?: string; overallSavingsMs?: number; overallSavingsBytes?: number } | null;
}

export interface Opportunity {
  title: string;
  savingsMs?: number;
  savingsBytes?: number;
}

/** Lighthouse's own line between a passed audit and one it lists to fix (its report's PASS rating). */
export const PASSED_AUDIT_SCORE = 0.9;

/**
 * Whether Lighthouse's report shows the audit as passed: it can still estimate savings (a 300 ms answer "could"
 * be 100 ms) under a title like "Initial server response time was short", which is no advice.
 */
function passed(audit: AuditLike): boolean {
  if (audit.scoreDisplayMode === 'manual' || audit.scoreDisplayMode === 'notApplicable') return true;
  if (audit.scoreDisplayMode === 'error' || audit.scoreDisplayMode === 'informative') return false;
  return typeof audit.score === 'number' && audit.score >= PASSED_AUDIT_SCORE;
}

const positive = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined);

/**
 * The audits Lighthouse itself calls opportunities, with the savings it estimated: time first (what a visitor
 * feels), then bytes; audits Lighthouse counts as passed, and those that would save nothing, are left out.
 */
export function topOpportunities(audits: Record<string, AuditLike>): Opportunity[] {
  const found: Opportunity[] = [];
  for (const audit of Object.values(audits)) {
    if (audit.details?.type !== 'opportunity' || passed(audit)) continue;
    const savingsMs = positive(audit.details.overallSavingsMs);
    const savingsBytes = positive(audit.details.overallSavingsBytes);
    if (savingsMs === undefined && savingsBytes === undefined) continue;
    found.push({
      title: audit.title,
      ...(savingsMs !== undefined ? { savingsMs: Math.round(savingsMs) } : {}),
      ...(savingsBytes !== undefined ? { savingsBytes: Math.round(savingsBytes) } : {}),
    });
  }
  found.sort((a, b) => (b.savingsMs ?? 0) - (a.savingsMs ?? 0) || (b.savingsBytes ?? 0) - (a.savingsBytes ?? 0));
  return found.slice(0, MAX_OPPORTUNITIES);
}
