/** The verdict in words and the one figure that sums up a test, for headers and the run report's table. */
import type { RunnerSummary } from '../../types.ts';
import type { RunReport } from '../types.ts';
import { formatDuration, formatRate } from '../format.ts';
import { countOf, riskList } from './kind-findings.ts';
import { CATEGORIES } from './kind-lighthouse.ts';

export const KIND_LABELS: Record<RunReport['kind'], string> = {
  browser: 'Browser tests',
  accessibility: 'Accessibility',
  lighthouse: 'Lighthouse audit',
  load: 'Load test',
  'security-scan': 'Security scan',
  'security-checks': 'Security checks',
  api: 'API tests',
  'mobile-static': 'Mobile app analysis',
};

const firstLine = (s: string | null | undefined) => (s ?? '').split('\n').find((l) => l.trim())?.trim().slice(0, 300);

function casesVerdict(r: RunReport, noun: string): string {
  const { totalTests: total, failedTests: failed, skippedTests: skipped, passedTests: passed } = r.totals;
  if (total === 0) return r.status === 'passed' ? 'Passed' : 'Failed: no cases ran';
  if (failed > 0) return `${failed} of ${total} ${noun}s failed`;
  if (r.status === 'failed') return `Failed: ${firstLine(r.error) ?? 'the run reported a failure'}`;
  if (skipped > 0) return `${passed} of ${total} ${noun}s passed, ${skipped} skipped`;
  return total === 1 ? `The ${noun} passed` : `All ${total} ${noun}s passed`;
}

function summaryVerdict(r: RunReport, s: RunnerSummary): string {
  switch (s.kind) {
    case 'browser':
      return casesVerdict(r, 'case');
    case 'api':
    case 'security-checks':
      return casesVerdict(r, 'check');
    case 'load': {
      const checks = s.thresholdChecks ?? [];
      const missed = checks.filter((c) => !c.met).length;
      if (missed) return `${missed} of ${checks.length} thresholds missed`;
      if (r.status === 'failed') return 'The load test failed its thresholds';
      return checks.length === 1 ? 'The threshold was met' : checks.length ? `All ${checks.length} thresholds met` : 'Load test completed (no thresholds set)';
    }
    case 'lighthouse': {
      const below = s.pages.filter((p) => p.passed === false || p.error).length;
      if (below) return `${below} of ${s.pages.length} pages below the score thresholds`;
      return s.pages.length === 1 ? 'The page meets the score thresholds' : `All ${s.pages.length} pages meet the score thresholds`;
    }
    case 'accessibility': {
      const failing = s.pages.filter((p) => !p.passed).length;
      if (failing) return `${failing} of ${s.pages.length} pages fail accessibility checks`;
      return s.pages.length === 1 ? 'The page passes accessibility checks' : `All ${s.pages.length} pages pass accessibility checks`;
    }
    case 'security-scan':
    case 'mobile-static': {
      const noun = s.kind === 'security-scan' ? 'alert' : 'finding';
      const list = riskList(s.findings, noun);
      if (!s.findings.length) return s.kind === 'security-scan' ? 'No alerts found' : 'No findings';
      const count = countOf(s.findings, noun);
      const n = `${count} ${noun}${count === 1 ? '' : 's'}`;
      return r.status === 'failed' ? `Failed with ${n}: ${list}` : `Passed with ${n}: ${list}`;
    }
  }
}

/** A security scan that ran but did not attack everything it should have (docs/decisions/0058). */
function incompleteScan(r: RunReport): string | null {
  const s = r.summary;
  if (r.status !== 'error' || s?.kind !== 'security-scan' || !s.coverage || s.coverage.complete) return null;
  return s.coverage.incomplete ?? 'part of the site was not attacked';
}

/** The title over a run's error. */
export function errorTitle(r: RunReport): string {
  if (incompleteScan(r) !== null) return 'Why the scan is incomplete';
  return r.status === 'error' ? 'Why the test could not run' : 'Error';
}

export function verdict(r: RunReport): string {
  const incomplete = incompleteScan(r);
  if (incomplete !== null) return `Incomplete scan: ${incomplete}`;
  if (r.status === 'error') return `The test could not run: ${firstLine(r.error) ?? 'it stopped before finishing'}`;
  if (r.summary) return summaryVerdict(r, r.summary);
  return r.status === 'passed' ? 'Passed' : `Failed${r.error ? `: ${firstLine(r.error)}` : ''}`;
}

/** One figure for the run report's table: what a reader would ask first about this kind. */
export function keyFigure(r: RunReport): string {
  const s = r.summary;
  if (incompleteScan(r) !== null && s?.kind === 'security-scan') return `incomplete${s.findings.length ? `: ${riskList(s.findings)}` : ''}`;
  if (r.status === 'error') return 'could not run';
  if (!s) return '–';
  switch (s.kind) {
    case 'browser':
    case 'api':
    case 'security-checks':
      return `${r.totals.passedTests} of ${r.totals.totalTests} passed`;
    case 'load':
      return `p95 ${formatDuration(s.load.ninetyFifthPercentileResponseTime)}${s.requestsPerSecond !== undefined ? `, ${formatRate(s.requestsPerSecond)}` : ''}`;
    case 'lighthouse': {
      const worst = (k: string) => Math.min(...s.pages.map((p) => p.scores[k] ?? Infinity));
      return CATEGORIES.map(([k, label]) => [label, worst(k)] as const)
        .filter(([, v]) => Number.isFinite(v))
        .map(([label, v]) => `${label} ${Math.round(v)}`)
        .join(', ') || '–';
    }
    case 'accessibility': {
      const rules = new Set(s.pages.flatMap((p) => (p.violations ?? []).map((v) => v.id))).size;
      return `${rules} ${rules === 1 ? 'rule' : 'rules'} broken on ${s.pages.length} ${s.pages.length === 1 ? 'page' : 'pages'}`;
    }
    case 'security-scan':
    case 'mobile-static':
      return riskList(s.findings, s.kind === 'security-scan' ? 'alert' : 'finding') || (s.kind === 'security-scan' ? 'no alerts' : 'no findings');
  }
}
