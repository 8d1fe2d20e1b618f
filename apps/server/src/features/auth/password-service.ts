import type { Db } from '../../db/database.ts';
import { findUserById, setPasswordHash, type UserRow } from '../accounts/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { useResetToken, voidResetTokens } from './reset-token-repository.ts';
import type { SessionService } from './session-service.ts';

/** The user of a reset token, using the token up (single use); null when unknown, used or expired. */
export async function consumeResetToken(db: Db, token: string): Promise<UserRow | null> {
  const userId = await useResetToken(db, token);
  return userId ? findUserById(db, userId) : null;
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
  await db.transaction(async (tx) => {
    await setPasswordHash(tx, user.id, passwordHash);
    await sessions.revokeUser(user, tx);
    // Other reset links of this user stop working too.
    await voidResetTokens(tx, user.id);
  });
  sessions.forgetUser(user);
}
