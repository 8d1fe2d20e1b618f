import type { Db } from '../../db/database.ts';
import type { SessionEvents } from '../../lib/session-events.ts';
import { isSessionLive, revokeSessionRows, revokeUserRows, startSession } from './sessions.ts';

const MEMO_MAX = 10_000;

/**
 * Login sessions, checked on every bearer call: an access token works only while its session (`sid`) is live,
 * so a logout, a password reset or a reused refresh token ends the access tokens already handed out, not just
 * the refresh tokens. On the embedded database (one process, decision 0013) live sessions are remembered in
 * memory and forgotten the moment they are revoked; with PostgreSQL every call asks the database, because a
 * revocation in another API process could not reach this one's memory (decision 0014).
 */
export class SessionService {
  /** sessionId → userId, live sessions only; null when every check must ask the database. */
  private readonly live: Map<string, string> | null;

  constructor(
    private readonly db: Db,
    private readonly events: SessionEvents,
    remember: boolean,
  ) {
    this.live = remember ? new Map() : null;
  }

  start(userId: string): Promise<string> {
    return startSession(this.db, userId);
  }

  async isLive(sessionId: string, userId: string): Promise<boolean> {
    if (this.live?.get(sessionId) === userId) return true;
    const live = await isSessionLive(this.db, sessionId, userId);
    if (live && this.live) {
      if (this.live.size >= MEMO_MAX) this.live.clear();
      this.live.set(sessionId, userId);
    }
    return live;
  }

  /** Logout, or a reused refresh token: this one session ends. False when it had already ended. */
  async revokeSession(sessionId: string, user: { id: string; clientId: string | null }): Promise<boolean> {
    const ended = await revokeSessionRows(this.db, sessionId);
    this.live?.delete(sessionId);
    if (ended) this.announce(user);
    return ended;
  }

  /**
   * Password reset or change: every session of the user ends. Pass `db` (a transaction's handle) to revoke
   * inside that transaction; then call `forgetUser` once it committed.
   */
  async revokeUser(user: { id: string; clientId: string | null }, db: Db = this.db): Promise<void> {
    await revokeUserRows(db, user.id);
    if (db === this.db) this.forgetUser(user);
  }

  forgetUser(user: { id: string; clientId: string | null }): void {
    if (this.live) for (const [sid, owner] of this.live) if (owner === user.id) this.live.delete(sid);
    this.announce(user);
  }

  private announce(user: { id: string; clientId: string | null }): void {
    // Event streams belong to a client; an operator (no client) has none to close.
    if (user.clientId) this.events.emit({ type: 'user-revoked', clientId: user.clientId, userId: user.id });
  }
}
