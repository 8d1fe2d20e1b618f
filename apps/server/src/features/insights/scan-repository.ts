import { SCAN_INCOMPLETE_ERROR, SCAN_NOTHING_TO_ATTACK_ERROR } from '@fullstop/contracts';
import type { TestKind } from '@fullstop/engine';
import { and, desc, eq, inArray, isNotNull, like, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineRunTests } from '../../db/schema/index.ts';

const FINISHED = ['passed', 'failed'] as const;

/**
 * The tests of a kind whose figures the insight cards count: the finished ones and, for the security scan, one that
 * ended incomplete (a module did not attack everything, nothing over the thresholds). Its findings are real: the
 * Zap card shows them, marked incomplete, rather than the scan before it or nothing (decision 0058). A scan that had
 * nothing to attack counts the same way: the card says so, rather than showing an older scan's green (issue 38).
 */
export function countedTests(kind: TestKind): SQL {
  const finished = inArray(engineRunTests.status, [...FINISHED]);
  if (kind !== 'security-scan') return finished;
  const ranWithoutVerdict = or(like(engineRunTests.error, `${SCAN_INCOMPLETE_ERROR}%`), like(engineRunTests.error, `${SCAN_NOTHING_TO_ATTACK_ERROR}%`));
  return or(finished, and(eq(engineRunTests.status, 'error'), ranWithoutVerdict))!;
}

/** The client's latest security scan with findings to count (finished or incomplete), if any. */
export async function latestCountedScan(db: Db, clientId: string): Promise<typeof engineRunTests.$inferSelect | null> {
  const [row] = await db
    .select()
    .from(engineRunTests)
    .where(and(eq(engineRunTests.clientId, clientId), eq(engineRunTests.kind, 'security-scan'), countedTests('security-scan'), isNotNull(engineRunTests.summary)))
    .orderBy(desc(engineRunTests.finishedAt))
    .limit(1);
  return row ?? null;
}
