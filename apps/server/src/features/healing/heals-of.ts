import { type CaseHeal, caseHeal } from '@fullstop/contracts';
import type { RunnerSummary } from '@fullstop/engine';

/** One case of a browser test that healed, with its heals (each parsed again: the runner's word, kept as data). */
export interface HealedCase {
  name: string;
  cell?: string;
  healed: CaseHeal[];
}

/** The cases of a run test's summary that healed a locator in their last attempt; none for any other test. */
export function healedCasesOf(summary: RunnerSummary | null | undefined): HealedCase[] {
  const cases = summary && 'cases' in summary && Array.isArray(summary.cases) ? summary.cases : [];
  const out: HealedCase[] = [];
  for (const c of cases) {
    if (!Array.isArray(c.healed) || c.healed.length === 0) continue;
    const healed = c.healed.flatMap((h) => {
      const parsed = caseHeal.safeParse(h);
      return parsed.success ? [parsed.data] : [];
    });
    if (healed.length > 0) out.push({ name: String(c.name).slice(0, 600), ...(c.cell ? { cell: c.cell } : {}), healed });
  }
  return out;
}

/** Whether any of these run tests healed a locator (a run's end asks before it reads anything more). */
export function anyHealed(tests: readonly { kind: string; summary: RunnerSummary | null | undefined }[]): boolean {
  return tests.some((t) => t.kind === 'browser' && healedCasesOf(t.summary).length > 0);
}
