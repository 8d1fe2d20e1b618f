import type { securityAlertsResponse } from '@fullstop/contracts';
import { groupAlerts } from '@fullstop/engine';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { latestFinishedOfKind } from '../runs/index.ts';
import { findingId, falsePositiveMatcher } from './false-positives.ts';

/**
 * The alerts of the client's latest security scan, instance by instance, grouped per rule as ZAP's report lists
 * them (highest risk first, then by name; an alert's instances together), each saying whether it was marked a
 * false positive. `alertId` names the instance (`rule@url` or `rule@url#param`); the rule alone names the alert.
 */
export async function latestScanFindings(db: Db, clientId: string): Promise<z.infer<typeof securityAlertsResponse>> {
  const scan = await latestFinishedOfKind(db, clientId, 'security-scan');
  if (!scan || scan.summary?.kind !== 'security-scan') return { testName: null, scannedAt: null, alerts: [] };
  const isFalse = await falsePositiveMatcher(db, clientId);
  return {
    testName: scan.testName,
    scannedAt: scan.finishedAt?.toISOString() ?? null,
    alerts: groupAlerts(scan.summary.findings).flatMap((alert) => alert.instances).map((f) => ({
      alertId: findingId(f),
      ruleId: f.ruleId,
      name: f.name,
      risk: f.risk,
      url: f.url ?? null,
      evidence: f.evidence ?? null,
      falsePositive: isFalse(f),
    })),
  };
}
