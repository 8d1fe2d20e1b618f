import type { RunTotals } from '@fullstop/contracts';
import type { Artifact, Finding, RunnerSummary, TestKind } from '../types.ts';

/** One attempt of a test run, kept even when a retry followed it. */
export interface AttemptRecord {
  attempt: number;
  status: 'passed' | 'failed' | 'error' | 'running';
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
  /** Path of the attempt's log relative to the run folder. */
  logPath: string | null;
}

/** Everything a reporter needs about one finished test run. */
export interface RunReport {
  clientName: string;
  testName: string;
  group: string;
  kind: TestKind;
  runId: string;
  status: 'passed' | 'failed' | 'error';
  totals: RunTotals;
  durationMs: number;
  startedAt: string;
  finishedAt: string;
  target: string;
  summary: RunnerSummary | null;
  error: string | null;
  /** Relative to `runDir`; the zip takes every file under runDir anyway. */
  artifacts: Artifact[];
  attempts: AttemptRecord[];
  /** Findings an operator marked false positives (security scans): shown apart, never counted by risk. */
  falsePositives?: Finding[];
}

export type ReportFileFormat = 'json' | 'html' | 'zip' | 'xml';

/**
 * A reporter turns a RunReport into one file. Adding a format is adding a reporter, nothing else changes.
 * `runDir` holds the run's artifacts; `outDir` is where reports go (the server serves them from there).
 */
export interface Reporter {
  format: ReportFileFormat;
  contentType: string;
  fileName: string;
  appliesTo(kind: TestKind): boolean;
  write(report: RunReport, dirs: { runDir: string; outDir: string }): Promise<string>;
}
