import path from 'node:path';
import type { Paths } from '../../../lib/data-dir.ts';

/** storage/runs/<client>/<run>/: a folder per run test, and reports/ with the run report of a "Run all". */
export function runDir(paths: Paths, clientId: string, runId: string): string {
  return path.join(paths.runs, clientId, runId);
}

/** storage/runs/<client>/<run>/<runTest>/: attempt-N/ (the runner's folder), attempt-N.log, reports/. */
export function runTestDir(paths: Paths, clientId: string, runId: string, runTestId: string): string {
  return path.join(runDir(paths, clientId, runId), runTestId);
}

export const attemptFolder = (attempt: number) => `attempt-${attempt}`;
export const attemptLog = (attempt: number) => `attempt-${attempt}.log`;
export const REPORTS_FOLDER = 'reports';
