import type { SummaryOf, TestKind } from '../../types.ts';
import type { RunReport } from '../types.ts';
import type { RenderOptions } from './render-options.ts';

/** How a run that ended in error after doing part of its work reads, instead of "could not run" (decision 0058). */
export interface PartialRun {
  verdict: string;
  /** The title over the run's error. */
  errorTitle: string;
  keyFigure: string;
}

/**
 * How a run of a kind reads in a report: each runner folder's `report.ts` exports its `report` (runners/reports.ts
 * gathers them). Its names are in its `facts.ts` (title, label); its sample report in `sample.ts`.
 */
export interface KindReport<K extends TestKind = TestKind> {
  kind: K;
  /** The verdict in words of a run that ran (passed or failed). */
  verdict(r: RunReport, s: SummaryOf<K>): string;
  /** One figure for the run report's table: what a reader would ask first about this kind. */
  keyFigure(r: RunReport, s: SummaryOf<K>): string;
  /** The kind's own sections, under the header and the error (condensed in the run report). */
  body(r: RunReport, s: SummaryOf<K>, opts: RenderOptions): string;
  /** A run that errored but did part of its work; null (or absent) when an error means it could not run. */
  partial?(s: SummaryOf<K>): PartialRun | null;
  /**
   * Whether the body shows the screenshots of cases that did not fail (a mobile UI test's, one after each step): the
   * html reporter then reads them too, after the failures' and the loose ones, within its budget (screenshots.ts).
   */
  passingScreenshots?: boolean;
}
