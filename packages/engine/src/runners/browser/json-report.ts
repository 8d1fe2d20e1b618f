import path from 'node:path';
import { caseInCell } from '@fullstop/contracts';
import type { Artifact, CaseResult } from '../../types.ts';
import type { RecordedHeals } from './healing/attempt.ts';
import { cellStepsKey, type RecordedSteps } from './steps-reporter.ts';

/** The parts of Playwright's JSON reporter output read here. */
export interface PlaywrightJsonReport {
  stats?: { expected: number; unexpected: number; flaky: number; skipped: number; duration: number };
  suites?: JsonSuite[];
  errors?: { message?: string }[];
}
interface JsonResult {
  duration: number;
  retry?: number;
  status?: string;
  error?: { message?: string };
  attachments?: { name: string; contentType: string; path?: string }[];
}
interface JsonSuite {
  title: string;
  file?: string;
  specs?: { id?: string; title: string; file?: string; line?: number; column?: number; tests: { projectName?: string; status: 'expected' | 'unexpected' | 'flaky' | 'skipped'; annotations?: { type: string; description?: string }[]; results: JsonResult[] }[] }[];
  suites?: JsonSuite[];
}

/** What the report says about one case, beyond its CaseResult: its evidence files, to list as artifacts. */
export interface CaseEvidence {
  /** Path relative to the run folder. */
  path: string;
  kind: 'trace' | 'screenshot';
  label: string;
}

const STATUS: Record<string, CaseResult['status']> = { expected: 'passed', flaky: 'passed', unexpected: 'failed', skipped: 'skipped' };
const EVIDENCE: Record<string, CaseEvidence['kind']> = { trace: 'trace', screenshot: 'screenshot' };
// Playwright colours its error messages for terminals.
// eslint-disable-next-line no-control-regex
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/** An attachment's file relative to the run folder; none when Playwright wrote it elsewhere. */
function insideRunDir(runDir: string, file: string | undefined): string | undefined {
  if (!file) return undefined;
  const rel = path.relative(runDir, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : undefined;
}

/**
 * One case per test: `file › describe › title`, its total duration over retries, and the last error; the steps,
 * screenshot and trace of its last attempt (the one that decided its status), with each attempt's screenshot and
 * trace also returned as evidence, labelled with the case's name. With `cells` (a test on several engines or
 * devices), a spec is a case per cell: its Playwright project, `<engine>/<device>`, is the case's `cell` and ends
 * its name ("home.spec.ts › loads [firefox/phone]"), so JUnit and history tell the cells apart.
 */
export function casesFromReport(
  report: PlaywrightJsonReport,
  detail: { runDir: string; steps?: RecordedSteps; cells?: boolean; heals?: RecordedHeals },
): { cases: CaseResult[]; evidence: CaseEvidence[] } {
  const cases: CaseResult[] = [];
  const evidence: CaseEvidence[] = [];
  const walk = (suite: JsonSuite, titles: string[]) => {
    const here = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const cell = detail.cells ? test.projectName : undefined;
        const name = caseInCell([...here, spec.title].join(' › '), cell);
        const error = [...test.results].reverse().find((r) => r.error?.message)?.error?.message;
        const files: Partial<Record<CaseEvidence['kind'], string>> = {};
        for (const [index, result] of test.results.entries()) {
          for (const attachment of result.attachments ?? []) {
            const kind = EVIDENCE[attachment.name];
            const file = insideRunDir(detail.runDir, attachment.path);
            if (!kind || !file) continue;
            // Playwright's own retries within one attempt of the run: named so, not to be taken for the run's attempts.
            const attempt = test.results.length > 1 ? (index === 0 ? ' (first try)' : ` (retry ${index})`) : '';
            evidence.push({ path: file, kind, label: `${kind === 'trace' ? 'Trace' : 'Screenshot'}: ${name}${attempt}` });
            // The last attempt's file wins: it shows the failure the case is reported with.
            files[kind] = file;
          }
        }
        const last = test.results.at(-1);
        // The JSON report's spec id is its first project's test id: the steps of a cell are keyed otherwise.
        const key = cell ? cellStepsKey(cell, spec.file ?? '', spec.line ?? 0, spec.column ?? 0) : spec.id;
        const attempts = key ? detail.steps?.[key] : undefined;
        const steps = attempts?.[last?.retry ?? test.results.length - 1];
        // The heals of the attempt that decided the case, keyed as its steps are (decision 0101).
        const healed = key ? detail.heals?.[key]?.[last?.retry ?? test.results.length - 1] : undefined;
        cases.push({
          name,
          ...(cell ? { cell } : {}),
          status: STATUS[test.status] ?? 'failed',
          durationMs: test.results.reduce((sum, r) => sum + r.duration, 0),
          ...(error && test.status === 'unexpected' ? { error: stripAnsi(error).slice(0, 4000) } : {}),
          ...(steps && steps.length > 0 ? { steps } : {}),
          ...(files.screenshot ? { screenshot: files.screenshot } : {}),
          ...(files.trace ? { trace: files.trace } : {}),
          ...(healed && healed.length > 0 ? { healed } : {}),
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return { cases, evidence };
}

/** The artifact of an evidence file, or of a file no case claims (still worth a download). */
export function evidenceArtifact(file: string, kind: CaseEvidence['kind'], label?: string): Artifact {
  return { path: file, kind, contentType: kind === 'trace' ? 'application/zip' : 'image/png', ...(label ? { label } : {}) };
}
