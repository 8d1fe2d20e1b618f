import type { Db } from '../../db/database.ts';
import type { SessionEvents } from '../../lib/session-events.ts';
import type { ClusterChannel } from '../../lib/cluster-channel.ts';
import { isSessionLive, revokeSessionRows, revokeUserRows, startSession } from './session-repository.ts';

const MEMO_MAX = 10_000;

interface SessionOwner {
  id: string;
  clientId: string | null;
}

/**
 * Login sessions, checked on every bearer call: an access token works only while its session (`sid`) is live,
 * so a logout, a password reset or a reused refresh token ends the access tokens already handed out, not just
 * the refresh tokens (decision 0014). Live sessions are remembered in memory and forgotten the moment one is
 * revoked: on the embedded database there is one process; with PostgreSQL every process hears revocations
 * through the cluster channel (lib/cluster-channel.ts), and while that channel is down every call asks the database.
 */
export class SessionService {
  /** sessionId → userId, live sessions only. */
  private readonly live = new Map<string, string>();
  /** Bumped by every revocation: a database read that started before one must not be remembered. */
  private epoch = 0;
  private channel: ClusterChannel | null = null;

  constructor(
    private readonly db: Db,
    private readonly events: SessionEvents,
  ) {}

  /** With PostgreSQL: revocations are announced to, and heard from, the other API processes through it. */
  useChannel(channel: ClusterChannel): void {
    this.channel = channel;
    channel.on('session', (m) => {
      this.hear(m.revoked);
      // The user's streams open in this process end as they do in the one that revoked the session.
      if (m.endStreams) this.events.emit({ type: 'user-revoked', ...m.endStreams });
    });
    // Revocations may have been missed while it was down (and before LISTEN took effect): start empty.
    channel.onHealth(() => this.reset());
  }

  /** Applies a revocation announced by another process. */
  hear(message: string): void {
    const [kind, id] = [message.slice(0, 2), message.slice(2)];
    if (kind === 's:') this.forgetSessionLocally(id);
    else if (kind === 'u:') this.forgetUserLocally(id);
    else this.reset();
  }

  /** Empties the memory (notifications may have been missed). */
  reset(): void {
    this.epoch += 1;
    this.live.clear();
  }

  private memoUsable(): boolean {
    return this.channel === null || this.channel.healthy;
  }

  start(userId: string): Promise<string> {
    return startSession(this.db, userId);
  }

  async isLive(sessionId: string, userId: string): Promise<boolean> {
    if (this.memoUsable() && this.live.get(sessionId) === userId) {
      // Revoked through another process a moment ago? Trusted once its message would have been heard.
      if (!this.channel || ((await this.channel.caughtUp()) && this.live.get(sessionId) === userId)) return true;
    }
    const seen = this.epoch;
    const live = await isSessionLive(this.db, sessionId, userId);
    if (live && this.memoUsable() && this.epoch === seen) {
      if (this.live.size >= MEMO_MAX) this.live.clear();
      this.live.set(sessionId, userId);
    }
    return live;
  }

  /** Logout, or a reused refresh token: this one session ends. False when it had already ended. */
  async revokeSession(sessionId: string, user: SessionOwner): Promise<boolean> {
    const ended = await revokeSessionRows(this.db, sessionId);
    await this.channel?.publish({ kind: 'session', revoked: `s:${sessionId}`, endStreams: ended ? this.streamsOf(user) : undefined });
    this.forgetSessionLocally(sessionId);
    if (ended) this.announce(user);
    return ended;
  }

  /**
   * Password reset or change: every session of the user ends. Pass `db` (a transaction's handle) to revoke
   * inside that transaction; then call `forgetUser` once it committed.
   */
  async revokeUser(user: SessionOwner, db: Db = this.db): Promise<void> {
    await revokeUserRows(db, user.id);
    await this.channel?.publish({ kind: 'session', revoked: `u:${user.id}`, endStreams: this.streamsOf(user) }, db);
    if (db === this.db) this.forgetUser(user);
  }

  forgetUser(user: SessionOwner): void {
    this.forgetUserLocally(user.id);
    this.announce(user);
  }

  private forgetSessionLocally(sessionId: string): void {
    this.epoch += 1;
    this.live.delete(sessionId);
  }

  private forgetUserLocally(userId: string): void {
    this.epoch += 1;
    for (const [sid, owner] of this.live) if (owner === userId) this.live.delete(sid);
  }

  private streamsOf(user: SessionOwner): { clientId: string; userId: string } | undefined {
    return user.clientId ? { clientId: user.clientId, userId: user.id } : undefined;
  }

  private announce(user: SessionOwner): void {
    // Event streams belong to a client; an operator (no client) has none to close.
    if (user.clientId) this.events.emit({ type: 'user-revoked', clientId: user.clientId, userId: user.id });
  }
}
