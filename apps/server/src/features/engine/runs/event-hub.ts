import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/database.ts';
import { TooManyRequestsError } from '../../../lib/errors.ts';
import type { SessionEvent } from '../../../lib/session-events.ts';
import type { EngineBus, EngineEvent } from './events.ts';
import { testEventOf } from './mappers.ts';
import { runTestsChangedSince } from './run-repository.ts';

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
}

/** A poll brings at most this many changes; the next one continues from the last it saw. */
const POLL_BATCH = 500;
/** Revocations older than this no longer matter: every stream token minted before them has expired. */
const REVOCATION_MEMORY_MS = 10 * 60_000;

/**
 * Every open event stream of this process. One bus listener and ONE database poll (for changes made by other
 * processes' workers) serve all streams, fanned out by client; the poll runs only while a stream is open.
 * It also caps the streams per credential and ends them when their credential stops being valid.
 */
export class EventHub {
  readonly #opts: EventHubOptions;
  readonly #byClient = new Map<string, Set<EventStream>>();
  readonly #perCredential = new Map<string, number>();
  /** credential key -> when it was revoked (ms): stream tokens minted before that are refused. */
  readonly #revokedAt = new Map<string, number>();
  #open = 0;
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  #since = new Date();
  readonly #offBus: () => void;
  /** Database polls made so far (all streams together); for tests and metrics. */
  polls = 0;

  constructor(opts: EventHubOptions) {
    this.#opts = opts;
    this.#offBus = opts.bus.onAll((clientId, event) => this.#fanOut(clientId, event));
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
    this.#startPolling();
    let detached = false;
    return () => {
      if (detached) return;
      detached = true;
      set.delete(stream);
      if (set.size === 0) this.#byClient.delete(clientId);
      this.#open -= 1;
      if (this.#open === 0) this.#stopPolling();
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
    this.#stopPolling();
    this.#offBus();
  }

  #fanOut(clientId: string, event: EngineEvent): void {
    const set = this.#byClient.get(clientId);
    if (!set) return;
    for (const stream of set) stream.send(event);
  }

  #startPolling(): void {
    if (this.#timer) return;
    // Changes from a little before the first stream opened are sent again; each stream drops what it has sent.
    this.#since = new Date(Date.now() - this.#opts.pollMs);
    this.#timer = setInterval(() => void this.#poll(), this.#opts.pollMs);
    this.#timer.unref();
  }

  #stopPolling(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #poll(): Promise<void> {
    if (this.#polling || this.#byClient.size === 0) return;
    this.#polling = true;
    this.polls += 1;
    try {
      const rows = await runTestsChangedSince(this.#opts.db, [...this.#byClient.keys()], this.#since, POLL_BATCH);
      for (const r of rows) {
        if (r.updatedAt > this.#since) this.#since = r.updatedAt;
        this.#fanOut(r.clientId, { type: 'test', data: testEventOf(r) });
      }
    } catch (err) {
      this.#opts.log.warn({ err }, 'event streams: the shared poll failed; trying again at the next tick');
    } finally {
      this.#polling = false;
    }
  }
}
