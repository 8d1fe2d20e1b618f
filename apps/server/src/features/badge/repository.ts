import { randomBytes } from 'node:crypto';
import type { BadgeState } from '@fullstop/contracts';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { clientBadges, engineRuns } from '../../db/schema/index.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { apiKeyLookupHash, openApiKey, sealApiKey } from '../../lib/api-keys.ts';

export interface Badge {
  token: string;
  createdAt: Date;
}

/** 32 random bytes, base64url: 43 characters nobody guesses. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The client's badge, created on the first call. */
export async function badgeOf(db: Db, keys: ServerKeys, clientId: string): Promise<Badge> {
  const [row] = await db.select().from(clientBadges).where(eq(clientBadges.clientId, clientId));
  if (row) return { token: openApiKey(keys, row.tokenSealed), createdAt: row.createdAt };
  const token = newToken();
  const now = new Date();
  // Two first calls at once: the first insert wins and both answer its token.
  await db
    .insert(clientBadges)
    .values({ clientId, tokenHash: apiKeyLookupHash(keys, token), tokenSealed: sealApiKey(keys, token), createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  const [stored] = await db.select().from(clientBadges).where(eq(clientBadges.clientId, clientId));
  return { token: openApiKey(keys, stored!.tokenSealed), createdAt: stored!.createdAt };
}

/** A new token in place of the old one: the old address stops working with this statement. */
export async function regenerateBadge(db: Db, keys: ServerKeys, clientId: string): Promise<Badge> {
  const token = newToken();
  const now = new Date();
  const values = { tokenHash: apiKeyLookupHash(keys, token), tokenSealed: sealApiKey(keys, token), updatedAt: now };
  await db
    .insert(clientBadges)
    .values({ clientId, ...values, createdAt: now })
    .onConflictDoUpdate({ target: clientBadges.clientId, set: values });
  return { token, createdAt: now };
}

/** The client a badge token belongs to; null for a token that is not (or no longer) anyone's. */
export async function clientOfBadgeToken(db: Db, keys: ServerKeys, token: string): Promise<string | null> {
  const [row] = await db
    .select({ clientId: clientBadges.clientId })
    .from(clientBadges)
    .where(eq(clientBadges.tokenHash, apiKeyLookupHash(keys, token)));
  return row?.clientId ?? null;
}

const FINISHED = ['passed', 'failed', 'error'] as const;

/** What the badge shows: the client's last finished run (cancelled runs say nothing about the site). */
export async function badgeStateOf(db: Db, clientId: string): Promise<BadgeState> {
  const [last] = await db
    .select({ status: engineRuns.status })
    .from(engineRuns)
    .where(and(eq(engineRuns.clientId, clientId), inArray(engineRuns.status, [...FINISHED])))
    .orderBy(desc(engineRuns.finishedAt), desc(engineRuns.createdAt))
    .limit(1);
  if (!last) return 'no runs';
  return last.status === 'passed' ? 'passing' : last.status === 'failed' ? 'failing' : 'could not run';
}
