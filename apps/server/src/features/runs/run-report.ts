import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { RunReport } from '@fullstop/engine';
import { writeRunReport } from '@fullstop/engine';
import type { EngineDeps } from '../engine/index.ts';
import { findClient } from '../accounts/index.ts';
import { ZERO_TOTALS } from './mappers.ts';
import { runReportKey } from '../reports/index.ts';
import { publishFolder, REPORTS_FOLDER, runDir } from '../../lib/run-paths.ts';
import type { RunRow, RunTestRow } from './run-repository.ts';
import type { ReportInput } from './finish.ts';

type BuildReport = (deps: EngineDeps, rt: RunTestRow, input: ReportInput) => Promise<RunReport>;

/** Who started the run, in the run report's words; the portal and CI both call with the client's API key. */
function triggerOf(requestedBy: string | null): string {
  if (requestedBy === 'bearer') return 'portal';
  if (requestedBy === 'operator' || requestedBy === 'operator-token') return 'operator';
  return 'api';
}

/** Where the run report of a run is: storage/runs/<client>/<run>/reports/. */
export function runReportDir(deps: Pick<EngineDeps, 'paths'>, clientId: string, runId: string): string {
  return path.join(runDir(deps.paths, clientId, runId), REPORTS_FOLDER);
}

/**
 * Writes the report of a whole "Run all" (its html; the pdf is printed on its first download) from every test's
 * report. A failure is logged and nothing more: the run has ended either way, and the Reports page keeps the
 * previous run report.
 */
export async function writeRunReportOf(deps: EngineDeps, run: RunRow, tests: RunTestRow[], build: BuildReport): Promise<void> {
  try {
    const client = await findClient(deps.db, run.clientId);
    const ordered = [...tests].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const reports = await Promise.all(
      ordered.map((t) =>
        build(deps, t, {
          // A cancelled test never ran to a result: the run report counts it with those that could not run.
          status: t.status === 'passed' || t.status === 'failed' ? t.status : 'error',
          summary: t.summary ?? null,
          error: t.error ?? (t.status === 'cancelled' ? 'Cancelled before it finished' : null),
          totals: t.totals ?? ZERO_TOTALS,
          durationMs: t.durationMs ?? 0,
          finishedAt: t.finishedAt ?? run.finishedAt ?? new Date(),
          artifacts: [],
        }),
      ),
    );
    const outDir = runReportDir(deps, run.clientId, run.id);
    await mkdir(outDir, { recursive: true, mode: 0o700 });
    await writeRunReport(
      {
        clientName: client?.name ?? run.clientId,
        runId: run.id,
        trigger: triggerOf(run.requestedBy),
        startedAt: run.createdAt.toISOString(),
        finishedAt: run.finishedAt?.toISOString() ?? null,
        target: client?.website ?? '',
        tests: reports,
      },
      { outDir },
    );
    await publishFolder(deps, runReportKey(run.clientId, run.id), outDir);
  } catch (err) {
    deps.log.error({ err, runId: run.id }, 'writing the run report failed');
  }
}
