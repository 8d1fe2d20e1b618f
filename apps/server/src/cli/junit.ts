import { escapeXml } from '@fullstop/engine/junit';
import { isIncompleteScanError, isNothingToAttackError, type RunStatus, type RunTotals } from '@fullstop/contracts';

/** One test of a run as the CI kit reports it. */
export interface CiTestResult {
  group: string;
  testName: string;
  status: RunStatus;
  durationMs: number | null;
  error: string | null;
  totals: RunTotals | null;
}

export interface CiRun {
  runId: string;
  /** When the run was created (ISO), the suites' timestamp. */
  startedAt: string | null;
  tests: CiTestResult[];
}

type Verdict = 'passed' | 'failed' | 'incomplete' | 'error' | 'skipped';

/**
 * passed and failed are verdicts; incomplete is a security scan that did not attack everything (or had nothing to
 * attack, issue 38) and found nothing over its thresholds (decision 0058); error is "could not run"; anything else (queued, running, cancelled) did not run.
 */
export function verdictOf(status: RunStatus, error: string | null = null): Verdict {
  if (status === 'error' && isIncompleteScanError(error)) return 'incomplete';
  if (status === 'passed' || status === 'failed' || status === 'error') return status;
  return 'skipped';
}

const secs = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);
const firstLine = (s: string) => s.split(/\r?\n/)[0] ?? s;

function failureText(t: CiTestResult): string {
  if (t.error) return t.error;
  if (t.totals) return `${t.totals.failedTests} of ${t.totals.totalTests} checks failed`;
  return 'failed';
}

function testcase(t: CiTestResult): string[] {
  const open = `    <testcase classname="${escapeXml(t.group)}" name="${escapeXml(t.testName)}" time="${secs(t.durationMs)}">`;
  const verdict = verdictOf(t.status, t.error);
  if (verdict === 'passed') return [open.replace(/>$/, '/>')];
  const body =
    verdict === 'failed'
      ? `      <failure type="failed" message="${escapeXml(firstLine(failureText(t)))}">${escapeXml(failureText(t))}</failure>`
      : verdict === 'incomplete'
        ? `      <error type="${isNothingToAttackError(t.error) ? 'nothing-to-attack' : 'incomplete-scan'}" message="${escapeXml(firstLine(t.error ?? 'the scan is incomplete'))}">${escapeXml(t.error ?? '')}</error>`
        : verdict === 'error'
        ? `      <error type="could-not-run" message="${escapeXml(firstLine(t.error ?? 'the test could not run'))}">${escapeXml(t.error ?? '')}</error>`
        : `      <skipped message="${escapeXml(t.status === 'cancelled' ? 'cancelled' : `not run: ${t.status} when the wait ended`)}"/>`;
  return [open, body, '    </testcase>'];
}

/**
 * The run as JUnit XML: one testsuite per group (sorted), one testcase per test (its time, a failure, an error for a test
 * that could not run or a scan that is incomplete (JUnit has no other place for "no verdict"), skipped for one that
 * did not run). Every name and message is escaped and stripped of the
 * characters XML does not allow (the engine's reporter does both).
 */
export function runToJunit(run: CiRun): string {
  // Sorted by group, then name: the same file for the same results, whatever order the server listed them in.
  const sorted = [...run.tests].sort((a, b) => a.group.localeCompare(b.group, 'en') || a.testName.localeCompare(b.testName, 'en'));
  const groups = new Map<string, CiTestResult[]>();
  for (const t of sorted) groups.set(t.group, [...(groups.get(t.group) ?? []), t]);
  const count = (tests: CiTestResult[], ...v: Verdict[]) => tests.filter((t) => v.includes(verdictOf(t.status, t.error))).length;
  const time = (tests: CiTestResult[]) => secs(tests.reduce((sum, t) => sum + (t.durationMs ?? 0), 0));
  const attrs = (tests: CiTestResult[]) =>
    `tests="${tests.length}" failures="${count(tests, 'failed')}" errors="${count(tests, 'error', 'incomplete')}" skipped="${count(tests, 'skipped')}" time="${time(tests)}"`;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="Fullstop QA run ${escapeXml(run.runId)}" ${attrs(run.tests)}>`];
  for (const [group, tests] of groups) {
    const stamp = run.startedAt ? ` timestamp="${escapeXml(run.startedAt.replace(/Z$/, ''))}"` : '';
    lines.push(`  <testsuite name="${escapeXml(group)}" ${attrs(tests)}${stamp}>`);
    for (const t of tests) lines.push(...testcase(t));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
