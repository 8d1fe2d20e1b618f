import { eq } from 'drizzle-orm';
import { deleteClientRows } from '../../db/client-rows.ts';
import type { Db } from '../../db/database.ts';
import { engineFalsePositives } from '../../db/schema/index.ts';

// Alerts an operator marked false positives (engine_false_positives). An empty url stands for every URL.

export type FalsePositiveRow = typeof engineFalsePositives.$inferSelect;
export interface FindingKey {
  ruleId: string;
  url: string;
}

export function listFalsePositives(db: Db, clientId: string): Promise<FalsePositiveRow[]> {
  return db.select().from(engineFalsePositives).where(eq(engineFalsePositives.clientId, clientId));
}

/** Marks the alert; marking it again replaces the note. */
export async function markFalsePositive(db: Db, clientId: string, alert: FindingKey, note: string | null, createdBy: string | null): Promise<void> {
  await db
    .insert(engineFalsePositives)
    .values({ clientId, ...alert, note, createdBy })
    .onConflictDoUpdate({ target: [engineFalsePositives.clientId, engineFalsePositives.ruleId, engineFalsePositives.url], set: { note } });
}

/** False when the alert was not marked. */
export async function unmarkFalsePositive(db: Db, clientId: string, alert: FindingKey): Promise<boolean> {
  return deleteClientRows(db, engineFalsePositives, clientId, eq(engineFalsePositives.ruleId, alert.ruleId), eq(engineFalsePositives.url, alert.url));
}
