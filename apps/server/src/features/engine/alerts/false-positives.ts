import type { Finding } from '@fullstop/engine';
import type { Db } from '../../../db/database.ts';
import { listFalsePositives } from './false-positive-repository.ts';

/** A stable id for an alert: its rule and URL. The operator API and CLI name alerts by it. */
export function alertId(f: Pick<Finding, 'ruleId' | 'url'>): string {
  return `${f.ruleId}@${f.url ?? ''}`;
}

/** Whether a finding was marked a false positive: by rule and URL, or by rule on every URL (empty url). */
export async function falsePositiveMatcher(db: Db, clientId: string): Promise<(f: Finding) => boolean> {
  const rows = await listFalsePositives(db, clientId);
  const exact = new Set(rows.filter((r) => r.url).map((r) => `${r.ruleId}@${r.url}`));
  const anyUrl = new Set(rows.filter((r) => !r.url).map((r) => r.ruleId));
  return (f) => anyUrl.has(f.ruleId) || exact.has(alertId(f));
}
