/** The verdict in words and the one figure that sums up a test, for headers and the run report's table. */
import { factsOf } from '../../runners/kinds.ts';
import { reportOf } from '../../runners/reports.ts';
import { firstLine } from '../format.ts';
import type { RunReport } from '../types.ts';
import type { PartialRun } from './kind-report.ts';

/** The kind over a report and in the run report's table: its folder's `label`, or its name when no longer known. */
export function kindLabel(kind: string): string {
  return factsOf(kind)?.label ?? kind;
}

/** A run that errored after doing part of its work, as its kind tells it (a security scan that attacked part of the site). */
function partialRun(r: RunReport): PartialRun | null {
  if (r.status !== 'error' || !r.summary) return null;
  return reportOf(r.summary)?.partial?.(r.summary) ?? null;
}

/** The title over a run's error. */
export function errorTitle(r: RunReport): string {
  const partial = partialRun(r);
  if (partial) return partial.errorTitle;
  return r.status === 'error' ? 'Why the test could not run' : 'Error';
}

export function verdict(r: RunReport): string {
  const partial = partialRun(r);
  if (partial) return partial.verdict;
  if (r.status === 'error') return `The test could not run: ${firstLine(r.error) ?? 'it stopped before finishing'}`;
  const report = r.summary && reportOf(r.summary);
  if (report && r.summary) return report.verdict(r, r.summary);
  return r.status === 'passed' ? 'Passed' : `Failed${r.error ? `: ${firstLine(r.error)}` : ''}`;
}

/** One figure for the run report's table: what a reader would ask first about this kind. */
export function keyFigure(r: RunReport): string {
  const partial = partialRun(r);
  if (partial) return partial.keyFigure;
  if (r.status === 'error') return 'could not run';
  if (!r.summary) return '–';
  return reportOf(r.summary)?.keyFigure(r, r.summary) ?? '–';
}
