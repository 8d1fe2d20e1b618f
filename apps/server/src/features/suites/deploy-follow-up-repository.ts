import { type AfterDeployState, afterDeployState } from '@fullstop/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { engineRuns } from '../../db/schema/index.ts';

/**
 * Takes on a deploy's re-crawl: true for exactly one caller per run, whichever process heard the run end or read its
 * report first (the state's startedAt is set only where it was still null).
 */
export async function claimAfterDeploy(db: Db, runId: string, at: Date): Promise<boolean> {
  const claimed = await db
    .update(engineRuns)
    .set({ afterDeploy: sql`jsonb_set(${engineRuns.afterDeploy}, '{startedAt}', to_jsonb(${at.toISOString()}::text))` })
    .where(and(eq(engineRuns.id, runId), sql`${engineRuns.afterDeploy} IS NOT NULL`, sql`${engineRuns.afterDeploy}->>'startedAt' IS NULL`))
    .returning({ id: engineRuns.id });
  return claimed.length === 1;
}

/** Records what followed a deploy's run: the re-crawl it started, or why none did. */
export async function setAfterDeploy(db: Db, runId: string, state: AfterDeployState): Promise<void> {
  await db.update(engineRuns).set({ afterDeploy: afterDeployState.parse(state) }).where(eq(engineRuns.id, runId));
}
