import { randomUUID } from 'node:crypto';
import { DEFAULT_MANUAL_SETTINGS, type ManualSettings, manualDueAt, type RunManualWaiting } from '@fullstop/contracts';
import { manualInput } from '@fullstop/engine';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { manualSettings, manualWork } from '../../db/schema/index.ts';

// A manual case in a run waits for a tester, not a worker (issue 41): the run plans one piece of manual work per
// platform of the case, due by the client's turnaround, and queues no job for it. The manual feature takes it from there.

/** The client's turnaround for manual work; DEFAULT_MANUAL_SETTINGS until an operator sets one. */
export async function manualSettingsOf(db: Db, clientId: string): Promise<ManualSettings> {
  const [row] = await db.select().from(manualSettings).where(eq(manualSettings.clientId, clientId)).limit(1);
  return row ? { dueHours: row.dueHours, workingDaysOnly: row.workingDaysOnly } : DEFAULT_MANUAL_SETTINGS;
}

/** The manual work of a run's manual tests, written in the run's own transaction. */
export async function planManualWork(db: Db, clientId: string, tests: { runTestId: string; options: Record<string, unknown> }[], now: Date): Promise<void> {
  if (tests.length === 0) return;
  const dueAt = manualDueAt(now, await manualSettingsOf(db, clientId));
  const rows = tests.flatMap(({ runTestId, options }) => {
    // Validated when the suite was imported: parsed again for its defaults (one platform, the estimate).
    const { options: o } = manualInput.parse({ options, thresholds: {} });
    return o.platforms.map((platform, platformIndex) => ({
      id: randomUUID(),
      runTestId,
      clientId,
      platformIndex,
      platform,
      dueAt,
      estimateMinutes: o.estimateMinutes,
      steps: o.steps.map(() => ({ verdict: null, note: null, evidence: [] })),
    }));
  });
  await db.insert(manualWork).values(rows);
}

/** A run's manual work still open: how many pieces, and the soonest due time; null when none waits. */
export async function manualWaitingOf(db: Db, runTestIds: string[]): Promise<RunManualWaiting | null> {
  if (runTestIds.length === 0) return null;
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, dueAt: sql<Date | string | null>`min(${manualWork.dueAt})` })
    .from(manualWork)
    .where(and(inArray(manualWork.runTestId, runTestIds), inArray(manualWork.status, ['waiting', 'claimed'])));
  if (!row || row.count === 0 || !row.dueAt) return null;
  return { count: row.count, dueAt: new Date(row.dueAt).toISOString() };
}
