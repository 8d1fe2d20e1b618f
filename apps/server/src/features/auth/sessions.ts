import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { refreshTokens, users } from '../../db/schema/index.ts';
import { randomToken, sha256 } from './tokens.ts';

const REFRESH_PREFIX = 'fsr_';

/** Issues a refresh token in a family (a new family at login). */
export async function issueRefreshToken(
  db: Db,
  userId: string,
  ttlSeconds: number,
  familyId: string = crypto.randomUUID(),
): Promise<string> {
  const token = randomToken(REFRESH_PREFIX);
  await db.insert(refreshTokens).values({
    familyId,
    userId,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

export type RotateResult =
  | { ok: true; userId: string; familyId: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'reused' | 'revoked'; userId?: string };

/**
 * Marks a refresh token used, atomically: of any number of concurrent calls with one token exactly one gets
 * `ok`. A token presented again after its use is a replay (or a theft): its whole family is revoked.
 */
export async function consumeRefreshToken(db: Db, token: string): Promise<RotateResult> {
  const tokenHash = sha256(token);
  const [won] = await db
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
  if (won) return { ok: true, ...won };

  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revokedAt) return { ok: false, reason: 'revoked', userId: row.userId };
  if (row.usedAt) {
    await revokeFamily(db, row.familyId);
    return { ok: false, reason: 'reused', userId: row.userId };
  }
  return { ok: false, reason: 'expired', userId: row.userId };
}

export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

export async function revokeAllForUser(db: Db, userId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

export async function findUserById(db: Db, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return user ?? null;
}
