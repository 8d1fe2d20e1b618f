import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { ClusterChannel, ClusterMessage } from '../../lib/cluster-channel.ts';
import { TooManyRequestsError } from '../../lib/errors.ts';
import type { SessionEvent } from '../../lib/session-events.ts';
import type { EngineBus, EngineEvent } from './events.ts';
import { runEventOf, testEventOf } from './mappers.ts';
import { findClientRun, getRunTest, runTestsChangedSince } from './run-repository.ts';

/** Who opened a stream: an API key (one per client) or a user; a stream token counts as what minted it. */
export interface StreamCredential {
  clientId: string;
  /** Null when the credential is the client's API key. */
  userId: string | null;
}

export function credentialKey(c: StreamCredential): string {
  return c.userId ? `user:${c.userId}` : `api-key:${c.clientId}`;
}

/** One open event stream, as the hub sees it. */
export interface EventStream {
  readonly credential: StreamCredential;
  send(event: EngineEvent): void;
  /** Ends the stream, telling the client why. */
  end(reason: string): void;
}

export interface EventHubOptions {
  db: Db;
  bus: EngineBus;
  log: FastifyBaseLogger;
  perCredential: number;
  pollMs: number;
  /**
   * How other processes' changes arrive: 'none' (the embedded database: one process, the bus alone), 'poll' (one
   * shared query every pollMs while a stream is open: EVENTS_VIA_NOTIFY=false), or the cluster channel (their
   * events as they happen; the poll runs only while it is down, and once more when it is back).
   */
  others: 'none' | 'poll' | ClusterChannel;
}

/** A poll brings at most this many changes; the next one continues from the last it saw. */
const POLL_BATCH = 500;
/** Revocations older than this no longer matter: every stream token minted before them has expired. */
const REVOCATION_MEMORY_MS = 10 * 60_000;

/**
 * Every open event stream of this process. One bus listener (this process's events), the cluster channel
 * (other processes' events) and, where that is not available, ONE database poll serve all streams, fanned out
 * by client; the poll runs only while a stream is open. It also caps the streams per credential and ends them
 * when their credential stops being valid.
 */
export class EventHub {
  readonly #opts: EventHubOptions;
  readonly #channel: ClusterChannel | null;
  readonly #byClient = new Map<string, Set<EventStream>>();
  readonly #perCredential = new Map<string, number>();
  /** credential key -> when it was revoked (ms): stream tokens minted before that are refused. */
  readonly #revokedAt = new Map<string, number>();
  #open = 0;
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  /** Another poll is due as soon as the running one ends. */
  #again = false;
  /** The channel is back: one more poll covers what it missed while it was down. */
  #catchUp = false;
  #since = new Date();
  readonly #off: (() => void)[] = [];
  /** Database polls made so far (all streams together); for tests and metrics. */
  polls = 0;

  constructor(opts: EventHubOptions) {
    this.#opts = opts;
    this.#channel = typeof opts.others === 'object' ? opts.others : null;
    this.#off.push(opts.bus.onAll((clientId, event) => this.#fanOut(clientId, event)));
    const channel = this.#channel;
    if (channel) {
      this.#off.push(
        channel.on('event', (m) => this.#fanOut(m.clientId, m.event)),
        channel.on('event-changed', (m) => void this.#readChanged(m)),
        channel.onHealth((healthy) => this.#channelHealth(healthy)),
      );
    }
  }

  get openStreams(): number {
    return this.#open;
  }

  /**
   * Counts a stream against its credential's cap before any await, so parallel opens cannot pass it together.
   * Returns the release function; throws a 429 when the credential already has its maximum open.
   */
  reserve(credential: StreamCredential): () => void {
    const key = credentialKey(credential);
    const count = this.#perCredential.get(key) ?? 0;
    const max = this.#opts.perCredential;
    if (count >= max) {
      throw new TooManyRequestsError(
        `Too many open event streams: at most ${max} at once per API key or user. Close one (or a browser tab) and try again.`,
        5,
      );
    }
    this.#perCredential.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#perCredential.get(key) ?? 1) - 1;
      if (left > 0) this.#perCredential.set(key, left);
      else this.#perCredential.delete(key);
    };
  }

  /** Starts delivering events to the stream; returns the function that stops. */
  attach(stream: EventStream): () => void {
    const { clientId } = stream.credential;
    let set = this.#byClient.get(clientId);
    if (!set) this.#byClient.set(clientId, (set = new Set()));
    set.add(stream);
    this.#open += 1;
    // Changes from a little before the first stream opened are sent again; each stream drops what it has sent.
    if (this.#open === 1) this.#since = new Date(Date.now() - this.#opts.pollMs);
    this.#syncPolling();
    let detached = false;
    return () => {
      if (detached) return;
      detached = true;
      set.delete(stream);
      if (set.size === 0) this.#byClient.delete(clientId);
      this.#open -= 1;
      this.#syncPolling();
    };
  }

  /** True when the credential was revoked after `issuedAtMs` (a stream token minted before a logout). */
  isRevoked(credential: StreamCredential, issuedAtMs: number): boolean {
    const at = this.#revokedAt.get(credentialKey(credential));
    return at !== undefined && at >= issuedAtMs;
  }

  /** A logout, password reset or new API key: the streams it opened end now. */
  revoke(event: SessionEvent): void {
    const now = Date.now();
    for (const [key, at] of this.#revokedAt) if (now - at > REVOCATION_MEMORY_MS) this.#revokedAt.delete(key);
    const match =
      event.type === 'api-key-replaced'
        ? (c: StreamCredential) => c.clientId === event.clientId && c.userId === null
        : (c: StreamCredential) => c.userId === event.userId;
    this.#revokedAt.set(
      credentialKey(event.type === 'api-key-replaced' ? { clientId: event.clientId, userId: null } : { clientId: event.clientId, userId: event.userId }),
      now,
    );
    const reason = event.type === 'api-key-replaced' ? 'The API key was replaced' : 'The session ended';
    for (const stream of [...(this.#byClient.get(event.clientId) ?? [])]) {
      if (match(stream.credential)) stream.end(reason);
    }
  }

  /** Ends every stream (server shutdown) and lets go of the bus. */
  close(reason: string): void {
    for (const set of [...this.#byClient.values()]) for (const stream of [...set]) stream.end(reason);
    clearInterval(this.#timer);
    this.#timer = undefined;
    for (const off of this.#off.splice(0)) off();
  }

  #fanOut(clientId: string, event: EngineEvent): void {
    const set = this.#byClient.get(clientId);
    if (!set) return;
    for (const stream of set) stream.send(event);
  }

  /** Whether the shared poll must run now. */
  #pollNeeded(): boolean {
    if (this.#open === 0) return false;
    if (this.#opts.others === 'poll' || this.#catchUp) return true;
    return this.#channel !== null && !this.#channel.healthy;
  }

  #syncPolling(): void {
    if (this.#pollNeeded()) {
      if (this.#timer) return;
      this.#timer = setInterval(() => void this.#poll(), this.#opts.pollMs);
      this.#timer.unref();
    } else if (this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #channelHealth(healthy: boolean): void {
    if (this.#open === 0) return;
    if (!healthy) {
      // From the last moment the channel was known to deliver (a margin for clocks and commit order).
      if (!this.#timer) this.#since = new Date(this.#channel!.lastHealthyAt.getTime() - this.#opts.pollMs);
      this.#syncPolling();
      return;
    }
    // LISTEN is in place again: one more poll covers what happened before it took effect.
    this.#catchUp = true;
    this.#syncPolling();
    void this.#poll();
  }

  /** An event too large for a notification: read it from its row. */
  async #readChanged(m: Extract<ClusterMessage, { kind: 'event-changed' }>): Promise<void> {
    if (!this.#byClient.has(m.clientId)) return;
    try {
      if (m.type === 'test') {
        const row = await getRunTest(this.#opts.db, m.id);
        if (row && row.clientId === m.clientId) this.#fanOut(m.clientId, { type: 'test', data: testEventOf(row) });
      } else {
        const run = await findClientRun(this.#opts.db, m.clientId, m.id);
        if (run) this.#fanOut(m.clientId, { type: 'run', data: runEventOf(run) });
      }
    } catch (err) {
      this.#opts.log.warn({ err }, 'event streams: a changed row could not be read');
    }
  }

  async #poll(): Promise<void> {
    if (this.#polling) {
      // A tick during a slow poll is skipped; a catch-up is not.
      if (this.#catchUp) this.#again = true;
      return;
    }
    if (this.#byClient.size === 0) this.#catchUp = false;
    if (!this.#pollNeeded()) {
      this.#syncPolling();
      return;
    }
    this.#polling = true;
    this.polls += 1;
    const catchUp = this.#catchUp;
    this.#catchUp = false;
    try {
      const rows = await runTestsChangedSince(this.#opts.db, [...this.#byClient.keys()], this.#since, POLL_BATCH);
      for (const r of rows) {
        if (r.updatedAt > this.#since) this.#since = r.updatedAt;
        this.#fanOut(r.clientId, { type: 'test', data: testEventOf(r) });
      }
      // A full batch: more are waiting (after an outage, say).
      if (rows.length === POLL_BATCH && catchUp) this.#catchUp = true;
    } catch (err) {
      if (catchUp) this.#catchUp = true;
      this.#opts.log.warn({ err }, 'event streams: the shared poll failed; trying again at the next tick');
    } finally {
      this.#polling = false;
      if (this.#again) {
        this.#again = false;
        void this.#poll();
      } else {
        this.#syncPolling();
      }
    }
  }
}
