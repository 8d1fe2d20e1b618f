import { htmlReporter } from './html-reporter.ts';
import { jsonReporter } from './json-reporter.ts';
import { junitReporter } from './junit-reporter.ts';
import type { Reporter, RunReport } from './types.ts';
import { zipReporter } from './zip-reporter.ts';

export * from './types.ts';
export { escapeHtml } from './html-reporter.ts';
export { toJunit } from './junit-reporter.ts';

/** Every reporter, in writing order: the zip comes last so it can hold the others. */
export const reporters: readonly Reporter[] = [jsonReporter, htmlReporter, junitReporter, zipReporter];

/** Writes every report that applies to the run's kind; returns format -> absolute file path. */
export async function writeReports(
  report: RunReport,
  dirs: { runDir: string; outDir: string },
): Promise<Partial<Record<Reporter['format'], string>>> {
  const written: Partial<Record<Reporter['format'], string>> = {};
  for (const r of reporters) {
    if (!r.appliesTo(report.kind)) continue;
    written[r.format] = await r.write(report, dirs);
  }
  return written;
}
