import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';

/**
 * A Playwright reporter, loaded by the generated config in the Playwright process: the top-level steps of each
 * test's attempts, written to the file given as its `outputFile` option. Playwright's JSON reporter keeps only
 * `test.step()` blocks, so a spec without them (most are) would show no steps; this one also keeps the actions
 * and assertions the test body made. Hooks and fixtures (browser start, context set-up) are left out: they are
 * the same for every test and say nothing about what the test did.
 *
 * Only type imports: the file must load in the Playwright process with nothing of the engine around it.
 */

/** Steps kept per attempt; a long test keeps its first ones (the failing step is kept in any case). */
export const MAX_STEPS_PER_TEST = 30;
const STEP_CATEGORIES = new Set(['test.step', 'pw:api', 'expect']);
const MAX_STEP_ERROR_CHARS = 500;

export interface RecordedStep {
  title: string;
  durationMs: number;
  error?: string;
}
/**
 * The file this reporter writes: test → its attempts' steps, by retry number. A test is keyed by its id with one
 * Playwright project; with several (a matrix of cells) by `cellStepsKey`, as the JSON report, which merges a
 * spec's projects under the first one's id, can name it too.
 */
export type RecordedSteps = Record<string, RecordedStep[][]>;

// Playwright colours its error messages for terminals.
// eslint-disable-next-line no-control-regex
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

function record(step: TestStep): RecordedStep {
  const error = step.error?.message;
  return {
    title: step.title,
    durationMs: Math.max(0, step.duration),
    ...(error ? { error: stripAnsi(error).split('\n').slice(0, 6).join('\n').slice(0, MAX_STEP_ERROR_CHARS) } : {}),
  };
}

/** A test of one cell: its project, file (relative to the config's root, with / between folders), line and column. */
export function cellStepsKey(project: string, file: string, line: number, column: number): string {
  return `${project} ${file}:${line}:${column}`;
}

export function stepsOf(result: TestResult): RecordedStep[] {
  const steps = result.steps.filter((s) => STEP_CATEGORIES.has(s.category));
  if (steps.length <= MAX_STEPS_PER_TEST) return steps.map(record);
  // Keep the first steps, but never drop the first failing one: it is why the test failed.
  const failing = steps.findIndex((s) => s.error);
  const kept = failing >= MAX_STEPS_PER_TEST ? [...steps.slice(0, MAX_STEPS_PER_TEST - 1), steps[failing]!] : steps.slice(0, MAX_STEPS_PER_TEST);
  return kept.map(record);
}

export default class StepsReporter implements Reporter {
  private readonly steps: RecordedSteps = {};
  private readonly outputFile: string;
  private rootDir: string | null = null;

  constructor(options: { outputFile: string }) {
    this.outputFile = options.outputFile;
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig): void {
    if (config.projects.length > 1) this.rootDir = config.rootDir;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const key = this.rootDir === null ? test.id : cellStepsKey(test.parent.project()?.name ?? '', path.relative(this.rootDir, test.location.file).split(path.sep).join('/'), test.location.line, test.location.column);
    const attempts = (this.steps[key] ??= []);
    attempts[result.retry] = stepsOf(result);
  }

  onEnd(_result: FullResult): void {
    writeFileSync(this.outputFile, JSON.stringify(this.steps));
  }
}
