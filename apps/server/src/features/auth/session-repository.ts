import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { authSessions, refreshTokens } from '../../db/schema/index.ts';
import { randomToken, sha256 } from '../../lib/tokens.ts';

const REFRESH_PREFIX = 'fsr_';

/** Starts a login session; its id is the refresh-token family and the access tokens' `sid` claim. */
export async function startSession(db: Db, userId: string): Promise<string> {
  const [row] = await db.insert(authSessions).values({ userId }).returning({ id: authSessions.id });
  return row!.id;
}

/** Issues a refresh token of a session (its family). */
export async function issueRefreshToken(db: Db, userId: string, ttlSeconds: number, sessionId: string): Promise<string> {
  const token = randomToken(REFRESH_PREFIX);
  await db.insert(refreshTokens).values({
    familyId: sessionId,
    userId,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

export type RotateResult =
  | { ok: true; userId: string; familyId: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'reused' | 'revoked'; userId?: string; familyId?: string };

const sessionLive = sql`EXISTS (SELECT 1 FROM ${authSessions} WHERE ${authSessions.id} = ${refreshTokens.familyId} AND ${authSessions.revokedAt} IS NULL)`;

/**
 * Marks a refresh token used, atomically: of any number of concurrent calls with one token exactly one gets
 * `ok`, and only while its session is live. A token presented again after its use is a replay (or a theft):
 * the caller revokes its whole session.
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
        sessionLive,
      ),
    )
    .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
  if (won) return { ok: true, ...won };
  return explainRefusal(db, tokenHash);
}

async function explainRefusal(db: Db, tokenHash: string): Promise<RotateResult> {
  const [row] = await db
    .select({ token: refreshTokens, sessionRevokedAt: authSessions.revokedAt })
    .from(refreshTokens)
    .leftJoin(authSessions, eq(authSessions.id, refreshTokens.familyId))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  if (!row) return { ok: false, reason: 'unknown' };
  const { userId, familyId } = row.token;
  if (row.token.revokedAt || row.sessionRevokedAt) return { ok: false, reason: 'revoked', userId, familyId };
  if (row.token.usedAt) return { ok: false, reason: 'reused', userId, familyId };
  return { ok: false, reason: 'expired', userId, familyId };
}

/** The session a refresh token belongs to, whatever the token's state (for logout). */
export async function findSessionOfRefreshToken(db: Db, token: string): Promise<{ sessionId: string; userId: string } | null> {
  const [row] = await db
    .select({ sessionId: refreshTokens.familyId, userId: refreshTokens.userId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(token)))
    .limit(1);
  return row ?? null;
}

/** Ends one session: its refresh tokens and the access tokens carrying its id stop working. False if already ended. */
export async function revokeSessionRows(db: Db, sessionId: string): Promise<boolean> {
  const ended = await db
    .update(authSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)))
    .returning({ id: authSessions.id });
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.familyId, sessionId), isNull(refreshTokens.revokedAt)));
  return ended.length > 0;
}

/** Ends every session of a user. */
export async function revokeUserRows(db: Db, userId: string): Promise<void> {
  await db.update(authSessions).set({ revokedAt: sql`now()` }).where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/** True while the session exists, belongs to this user and is not revoked. */
export async function isSessionLive(db: Db, sessionId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: authSessions.id })
    .from(authSessions)
    .where(and(eq(authSessions.id, sessionId), eq(authSessions.userId, userId), isNull(authSessions.revokedAt)))
    .limit(1);
  return Boolean(row);
}
