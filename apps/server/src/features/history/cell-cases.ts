import { caseWithoutCell, type RunTestCase } from '@fullstop/contracts';
import type { RunnerSummary } from '@fullstop/engine';

/**
 * A run test's cases for the portal's matrix (issue 26), only when they ran in cells (engines × devices); null for
 * every other test, so its run detail reads exactly as before. A case's name loses the ` [cell]` its runner added.
 */
export function cellCasesOf(summary: RunnerSummary | null | undefined): RunTestCase[] | null {
  const cases = summary && 'cases' in summary && Array.isArray(summary.cases) ? summary.cases : [];
  if (!cases.some((c) => c.cell)) return null;
  return cases.map((c) => ({ name: caseWithoutCell(c.name, c.cell), status: c.status, ...(c.cell ? { cell: c.cell } : {}), error: c.error ?? null }));
}
