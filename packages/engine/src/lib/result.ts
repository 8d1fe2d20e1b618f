import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunTotals } from '@fullstop/contracts';
import type { Artifact, CaseResult, RunContext, RunnerSummary, TestKind } from '../types.ts';

export function totalsFromCases(cases: readonly CaseResult[]): RunTotals {
  return {
    totalTests: cases.length,
    passedTests: cases.filter((c) => c.status === 'passed').length,
    failedTests: cases.filter((c) => c.status === 'failed').length,
    skippedTests: cases.filter((c) => c.status === 'skipped').length,
  };
}

export const NO_TOTALS: RunTotals = { totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 };

/** A summary with nothing in it, for a run that could not run. */
export function emptySummary(kind: TestKind): RunnerSummary {
  switch (kind) {
    case 'load':
      return {
        kind,
        load: {
          averageResponseTime: 0,
          maxResponseTime: 0,
          minResponseTime: 0,
          ninetyFifthPercentileResponseTime: 0,
          failedRequestsCount: 0,
          totalRequests: 0,
          successfulRequests: 0,
          dataSentBytes: 0,
          dataReceivedBytes: 0,
          failedRequestsRate: 0,
          customMetricThresholdMet: false,
        },
        failuresByUrl: [],
      };
    case 'lighthouse':
    case 'accessibility':
      return { kind, pages: [] };
    case 'security-scan':
      return { kind, findings: [] };
    case 'mobile-static':
      return { kind, findings: [], app: {} };
    default:
      return { kind, cases: [] };
  }
}

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
