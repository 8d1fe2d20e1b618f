import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { passwordResetTokens, users } from '../../db/schema/index.ts';
import { hashPassword } from './passwords.ts';
import type { SessionService } from './session-service.ts';
import { randomToken, sha256 } from './tokens.ts';

export async function createResetToken(db: Db, userId: string, ttlSeconds: number): Promise<string> {
  const token = randomToken('fsp_');
  await db.insert(passwordResetTokens).values({
    userId,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

/** Uses a reset token up, atomically (single use); null when unknown, used or expired. */
export async function consumeResetToken(db: Db, token: string) {
  const [row] = await db
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, sha256(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: passwordResetTokens.userId });
  if (!row) return null;
  const [user] = await db.select().from(users).where(eq(users.id, row.userId)).limit(1);
  return user ?? null;
}

/**
 * Sets a new password and, in the same transaction, ends every session of the user (a reset usually means the
 * old password leaked): every access and refresh token issued before it stops working at once.
 */
export async function setPassword(
  db: Db,
  sessions: SessionService,
  user: { id: string; clientId: string | null },
  password: string,
): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (txHandle) => {
    const tx = txHandle as unknown as Db;
    await tx.update(users).set({ passwordHash, passwordChangedAt: sql`now()` }).where(eq(users.id, user.id));
    await sessions.revokeUser(user, tx);
    // Other reset links of this user stop working too.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
  });
  sessions.forgetUser(user);
}
