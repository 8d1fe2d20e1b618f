import type { TestFlaky } from '@fullstop/contracts';
import type { Db } from '../../db/database.ts';
import { marksOfClient, marksOfClients, type MarkRow } from './mark-repository.ts';

/** What the portal and the console show of a mark: an operator's own mark counts as confirmed. */
export function flakyOf(row: Pick<MarkRow, 'source' | 'reason' | 'note' | 'confirmedAt' | 'detectedAt' | 'createdAt'>): TestFlaky {
  return {
    reason: row.reason ?? row.note ?? 'Marked flaky by the Fullstop team',
    source: row.source,
    confirmed: row.source === 'operator' || row.confirmedAt !== null,
    since: (row.detectedAt ?? row.createdAt).toISOString(),
  };
}

/** The flags of one client's tests (all, or these names), by test name. */
export async function flakyFlagsOf(db: Db, clientId: string, testNames?: string[]): Promise<Map<string, TestFlaky>> {
  if (testNames && testNames.length === 0) return new Map();
  const rows = await marksOfClient(db, clientId, testNames);
  return new Map(rows.map((r) => [r.testName, flakyOf(r)]));
}

/** The flags of several clients' tests, by `clientId\ntestName`. */
export async function flakyFlagsOfClients(db: Db, clientIds: string[]): Promise<Map<string, TestFlaky>> {
  if (clientIds.length === 0) return new Map();
  const rows = await marksOfClients(db, clientIds);
  return new Map(rows.map((r) => [`${r.clientId}\n${r.testName}`, flakyOf(r)]));
}
