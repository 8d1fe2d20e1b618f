import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunTotals } from '@fullstop/contracts';
import type { Artifact, CaseResult, RunContext, RunnerResult, RunnerSummary } from '../types.ts';

export function totalsFromCases(cases: readonly CaseResult[]): RunTotals {
  return {
    totalTests: cases.length,
    passedTests: cases.filter((c) => c.status === 'passed').length,
    failedTests: cases.filter((c) => c.status === 'failed').length,
    skippedTests: cases.filter((c) => c.status === 'skipped').length,
  };
}

/** A summary made of pages that each pass or fail (accessibility, Lighthouse). */
type PagesSummary = Extract<RunnerSummary, { pages: readonly { passed?: boolean }[] }>;

/** The outcome of a run whose pages each pass or fail: a page counts as a test, and one that fails fails the run. */
export function pagesOutcome(summary: PagesSummary, artifacts: Artifact[]): Pick<RunnerResult, 'status' | 'totals' | 'summary' | 'artifacts'> {
  const total = summary.pages.length;
  const failed = summary.pages.filter((p) => !p.passed).length;
  return {
    status: failed > 0 ? 'failed' : 'passed',
    totals: { totalTests: total, passedTests: total - failed, failedTests: failed, skippedTests: 0 },
    summary,
    artifacts,
  };
}

export const NO_TOTALS: RunTotals = { totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 };

/** Writes `data` as pretty JSON inside the run folder and describes it as an artifact. */
export async function writeJsonArtifact(ctx: RunContext, relPath: string, data: unknown, label?: string): Promise<Artifact> {
  const abs = path.join(ctx.runDir, relPath);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, `${JSON.stringify(data, null, 2)}\n`);
  return { path: relPath, kind: 'json', contentType: 'application/json', ...(label ? { label } : {}) };
}

/** The error's message, with its cause's (fetch says only "fetch failed"; the cause says why). */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !error.message.includes(cause) ? `${error.message}: ${cause}` : error.message;
}
