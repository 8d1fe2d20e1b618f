import type { CaseResult } from '../../types.ts';

/** The parts of Playwright's JSON reporter output read here. */
export interface PlaywrightJsonReport {
  stats?: { expected: number; unexpected: number; flaky: number; skipped: number; duration: number };
  suites?: JsonSuite[];
  errors?: { message?: string }[];
}
interface JsonSuite {
  title: string;
  file?: string;
  specs?: { title: string; file?: string; tests: { status: 'expected' | 'unexpected' | 'flaky' | 'skipped'; results: { duration: number; error?: { message?: string } }[] }[] }[];
  suites?: JsonSuite[];
}

const STATUS: Record<string, CaseResult['status']> = { expected: 'passed', flaky: 'passed', unexpected: 'failed', skipped: 'skipped' };
// Playwright colours its error messages for terminals.
// eslint-disable-next-line no-control-regex
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/** One case per test: `file › describe › title`, its total duration over retries, and the last error. */
export function casesFromReport(report: PlaywrightJsonReport): CaseResult[] {
  const cases: CaseResult[] = [];
  const walk = (suite: JsonSuite, titles: string[]) => {
    const here = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const error = [...test.results].reverse().find((r) => r.error?.message)?.error?.message;
        cases.push({
          name: [...here, spec.title].join(' › '),
          status: STATUS[test.status] ?? 'failed',
          durationMs: test.results.reduce((sum, r) => sum + r.duration, 0),
          ...(error && test.status === 'unexpected' ? { error: stripAnsi(error).slice(0, 4000) } : {}),
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return cases;
}
