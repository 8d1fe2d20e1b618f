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

/** Every test of one "Run all", for the run report. */
export interface RunSummaryReport {
  clientName: string;
  runId: string;
  /** Who or what started the run: portal, api, ci, schedule. */
  trigger: string;
  startedAt: string;
  finishedAt: string | null;
  target: string;
  tests: RunReport[];
}

export type ReportFileFormat = 'json' | 'html' | 'zip' | 'xml' | 'pdf';

/** Where a reporter reads and writes. */
export interface ReportDirs {
  runDir: string;
  outDir: string;
}

/** One format a report is offered in: its content type and its file's name in the reports' folder. */
export interface ReportFile {
  format: ReportFileFormat;
  contentType: string;
  fileName: string;
  /** Whether this format suits a run of the kind; absent, it suits every kind. */
  appliesTo?(kind: TestKind): boolean;
}

/**
 * A reporter turns a RunReport into one file when the test ends. Adding a format is adding a reporter, nothing
 * else changes. `runDir` holds the run's artifacts; `outDir` is where reports go (the server serves them from
 * there). The pdf is no reporter: it is printed from the html on its first download (pdf-reporter.ts).
 */
export interface Reporter extends ReportFile {
  /** Returns the file written, or null when this format could not be written here. */
  write(report: RunReport, dirs: ReportDirs): Promise<string | null>;
}
