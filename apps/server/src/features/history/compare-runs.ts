import type { AlertRef, RunComparison, RunStatus } from '@fullstop/contracts';
import type { Finding, RunnerSummary } from '@fullstop/engine';
import { isResult } from '../runs/index.ts';

/** A test's result as the comparison reads it: this run's, or the one it had the time before. */
export interface ComparedResult {
  testName: string;
  status: RunStatus;
  summary: RunnerSummary | null;
}

export interface PreviousResult extends ComparedResult {
  runId: string;
  createdAt: Date;
}

const failing = (s: RunStatus) => s === 'failed' || s === 'error';

/** Alerts are the same alert when rule, URL and parameter agree. */
const alertKey = (f: Finding) => JSON.stringify([f.ruleId, f.url ?? '', f.param ?? '']);

/** The findings of a scan that ran to its end (an errored scan found nothing, it did not fix anything). */
function findingsOf(r: ComparedResult, isFalsePositive: (f: Finding) => boolean): Finding[] | null {
  if ((r.status !== 'passed' && r.status !== 'failed') || r.summary?.kind !== 'security-scan') return null;
  return r.summary.findings.filter((f) => !isFalsePositive(f));
}

const refOf = (testName: string, f: Finding): AlertRef => ({ testName, ruleId: f.ruleId, name: f.name, risk: f.risk, url: f.url ?? null, param: f.param ?? null });

const riskOrder = { High: 0, Medium: 1, Low: 2, Informational: 3 } as const;
const byRisk = (a: AlertRef, b: AlertRef) => riskOrder[a.risk] - riskOrder[b.risk] || a.name.localeCompare(b.name);

/**
 * What changed since each test's previous result: tests now failing that passed, passing that failed, still
 * failing; and security alerts that appeared or went away (operator-marked false positives left out). A test
 * with no earlier result, or still running, has nothing to compare.
 */
export function compareRuns(current: ComparedResult[], previous: PreviousResult[], isFalsePositive: (f: Finding) => boolean): RunComparison {
  const before = new Map(previous.map((p) => [p.testName, p]));
  const comparison: RunComparison = {
    previousRunId: null,
    previousRunAt: null,
    newlyFailing: [],
    fixed: [],
    stillFailing: [],
    newAlerts: [],
    resolvedAlerts: [],
  };
  let newest: PreviousResult | null = null;
  for (const now of current) {
    const was = before.get(now.testName);
    if (!was || !isResult(now.status)) continue;
    if (!newest || was.createdAt > newest.createdAt) newest = was;
    if (failing(now.status) && was.status === 'passed') comparison.newlyFailing.push(now.testName);
    else if (now.status === 'passed' && failing(was.status)) comparison.fixed.push(now.testName);
    else if (failing(now.status) && failing(was.status)) comparison.stillFailing.push(now.testName);

    const nowFindings = findingsOf(now, isFalsePositive);
    const wasFindings = findingsOf(was, isFalsePositive);
    if (!nowFindings || !wasFindings) continue;
    const nowKeys = new Set(nowFindings.map(alertKey));
    const wasKeys = new Set(wasFindings.map(alertKey));
    const unique = (list: Finding[]) => [...new Map(list.map((f) => [alertKey(f), f])).values()];
    for (const f of unique(nowFindings)) if (!wasKeys.has(alertKey(f))) comparison.newAlerts.push(refOf(now.testName, f));
    for (const f of unique(wasFindings)) if (!nowKeys.has(alertKey(f))) comparison.resolvedAlerts.push(refOf(now.testName, f));
  }
  for (const list of [comparison.newlyFailing, comparison.fixed, comparison.stillFailing]) list.sort((a, b) => a.localeCompare(b));
  comparison.newAlerts.sort(byRisk);
  comparison.resolvedAlerts.sort(byRisk);
  if (newest) {
    comparison.previousRunId = newest.runId;
    comparison.previousRunAt = newest.createdAt.toISOString();
  }
  return comparison;
}
