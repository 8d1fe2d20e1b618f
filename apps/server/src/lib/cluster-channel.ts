import { randomBytes } from 'node:crypto';
import { runEvent, testEvent } from '@fullstop/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { z } from 'zod';
import type { Db } from '../db/database.ts';

/** The one PostgreSQL channel every process of a deployment listens on. */
export const CLUSTER_CHANNEL = 'fullstop_cluster';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; the envelope needs a few of them. */
const MAX_PAYLOAD_BYTES = 7_900;
const RECONNECT_MIN_MS = 250;
/** The longest a call waits for caughtUp's round trip before it asks the database instead. */
const FENCE_MAX_MS = 2_000;
const RECONNECT_MAX_MS = 30_000;

const cacheNamespace = z.enum(['profile', 'tests', 'reports', 'insights']);

/** What processes tell each other. Never reaches a browser; parsed anyway, since anyone with SQL access can NOTIFY. */
const clusterMessage = z.discriminatedUnion('kind', [
  /** An engine event (GET /test/events) of one client. */
  z.object({ kind: z.literal('event'), clientId: z.string(), event: z.discriminatedUnion('type', [
    z.object({ type: z.literal('test'), data: testEvent }),
    z.object({ type: z.literal('run'), data: runEvent }),
  ]) }),
  /** An event too large for a notification: the receivers read the row themselves. */
  z.object({ kind: z.literal('event-changed'), clientId: z.string(), type: z.enum(['test', 'run']), id: z.string() }),
  /** Cached reads to drop: one client's (null: every client's) namespaces (null: all of them). */
  z.object({ kind: z.literal('cache'), clientId: z.string().nullable(), namespaces: z.array(cacheNamespace).nullable() }),
  /** The client's API key was replaced: the old one stops working everywhere. */
  z.object({ kind: z.literal('api-key-replaced'), clientId: z.string() }),
  /**
   * A login session (`s:<sessionId>`) or every session of a user (`u:<userId>`) was revoked; with the user's
   * client when the user's event streams must end too.
   */
  z.object({ kind: z.literal('session'), revoked: z.string(), endStreams: z.object({ clientId: z.string(), userId: z.string() }).optional() }),
]);
export type ClusterMessage = z.infer<typeof clusterMessage>;
type Kind = ClusterMessage['kind'];
type MessageOf<K extends Kind> = Extract<ClusterMessage, { kind: K }>;

const envelope = z.object({ from: z.string(), messages: z.array(z.unknown()) });

interface Pending {
  message: ClusterMessage;
  done: () => void;
}

/**
 * One LISTEN connection per process (API server or `fullstop worker`) on one PostgreSQL database: engine
 * events, cache invalidations, replaced API keys and revoked sessions reach every other process within
 * milliseconds. Messages published in one tick go out together (one NOTIFY, as many as fit in 8000 bytes),
 * in order, on the listening connection itself, or through the pool while it is down. A process never hears
 * its own messages (it applied them when it sent them).
 *
 * While the connection is down nothing can be promised: `healthy` is false, memories that depend on it must
 * not be trusted, and `onHealth` listeners run at every change (a poll takes over, memories are emptied).
 */
export class ClusterChannel {
  /** This process's id in every message it sends (random: two apps in one test process are two processes). */
  readonly processId = randomBytes(8).toString('hex');
  #client: pg.Client | null = null;
  #healthy = false;
  #closed = false;
  #timer: NodeJS.Timeout | null = null;
  #retryMs = RECONNECT_MIN_MS;
  /** When the connection was last known to be working (for the catch-up poll after an outage). */
  #lastHealthyAt = new Date();
  #backendPid: number | null = null;
  #queue: Pending[] = [];
  #scheduled = false;
  /** Sends run one after the other, so messages arrive in the order they were published. */
  #chain: Promise<void> = Promise.resolve();
  /** The fence on the listening connection in flight, and the one queued behind it (caughtUp). */
  #fence: Promise<boolean> | null = null;
  #nextFence: Promise<boolean> | null = null;
  readonly #listeners = new Map<Kind, Set<(m: ClusterMessage) => void>>();
  readonly #health = new Set<(healthy: boolean) => void>();
  /** Notifications sent and received (tests and benches read them). */
  readonly stats = { sent: 0, received: 0, dropped: 0 };

  constructor(
    private readonly url: string,
    /** Sends the messages while the listening connection is down (other processes may still hear them). */
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  get healthy(): boolean {
    return this.#healthy;
  }

  /** The server process of the listening connection (tests end it with pg_terminate_backend). */
  get backendPid(): number | null {
    return this.#backendPid;
  }

  /** The last moment the channel was known to deliver everything: now while healthy, else when it went down. */
  get lastHealthyAt(): Date {
    return this.#healthy ? new Date() : this.#lastHealthyAt;
  }

  /** Messages of one kind from the other processes; returns the function that stops listening. */
  on<K extends Kind>(kind: K, listener: (message: MessageOf<K>) => void): () => void {
    let set = this.#listeners.get(kind);
    if (!set) this.#listeners.set(kind, (set = new Set()));
    const l = listener as (m: ClusterMessage) => void;
    set.add(l);
    return () => set.delete(l);
  }

  /**
   * Resolves true once every message another process published before this call has been heard and applied; false
   * when that cannot be known (the channel is down). A memory a message would empty (a replaced key, a revoked
   * session) is trusted only after it: a key replaced through one process is refused by the next call to any other,
   * even when that call outruns the notification.
   *
   * A round trip on the listening connection: PostgreSQL delivers the notifications committed before a query
   * ahead of its result. Calls share them: one in flight serves those that came before it started, the next one
   * all those that came while it ran, so a burst of calls costs two round trips, not one each.
   */
  caughtUp(): Promise<boolean> {
    if (!this.#healthy || !this.#client) return Promise.resolve(false);
    if (!this.#fence) {
      const client = this.#client;
      let timer: NodeJS.Timeout | undefined;
      // A connection that stalls must not stall the calls: past FENCE_MAX_MS the memory is not trusted (they ask the
      // database), as while the channel is down.
      const stalled = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), FENCE_MAX_MS);
      });
      const answered = client.query('SELECT 1').then(
        () => this.#client === client && this.#healthy,
        () => false,
      );
      this.#fence = Promise.race([answered, stalled]).finally(() => {
        clearTimeout(timer);
        this.#fence = null;
      });
      return this.#fence;
    }
    this.#nextFence ??= this.#fence.then(() => {
      this.#nextFence = null;
      return this.caughtUp();
    });
    return this.#nextFence;
  }

  /** Runs at every change of `healthy`: messages may have been missed before a `true`. */
  onHealth(listener: (healthy: boolean) => void): () => void {
    this.#health.add(listener);
    return () => this.#health.delete(listener);
  }

  async start(): Promise<void> {
    if (this.#closed || this.#client) return;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    const lost = (err?: unknown) => {
      if (this.#client !== client) return;
      this.#client = null;
      client.end().catch(() => {});
      this.#setHealthy(false);
      if (this.#closed) return;
      this.log.warn({ err }, `cluster channel lost; polling and asking the database until it is back (retry in ${this.#retryMs} ms)`);
      this.#timer = setTimeout(() => {
        this.#timer = null;
        void this.start();
      }, this.#retryMs);
      this.#timer.unref();
      this.#retryMs = Math.min(this.#retryMs * 2, RECONNECT_MAX_MS);
    };
    this.#client = client;
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (n) => {
      if (n.channel === CLUSTER_CHANNEL && n.payload) this.#receive(n.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CLUSTER_CHANNEL}`);
      if (this.#client !== client) return;
      this.#backendPid = (client as unknown as { processID: number | null }).processID ?? null;
      this.#retryMs = RECONNECT_MIN_MS;
      this.#setHealthy(true);
    } catch (err) {
      lost(err);
    }
  }

  /**
   * Announces a message to the other processes. With a transaction's handle it goes out when that transaction
   * commits (and not at all if it rolls back); otherwise with the others of this tick. Resolves once sent;
   * never rejects (a failure is logged: the receivers' memories then last at most their TTL).
   */
  publish(message: ClusterMessage, tx?: Db): Promise<void> {
    if (this.#closed) return Promise.resolve();
    // Inside a transaction a failure is the caller's: its transaction rolls back.
    if (tx) return this.#notify(tx, this.#pack([message])[0]!);
    return new Promise((resolve) => {
      this.#queue.push({ message, done: resolve });
      if (this.#scheduled) return;
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        void this.#flush();
      });
    });
  }

  async close(): Promise<void> {
    await this.#flush();
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = null;
    this.#setHealthy(false);
    await client?.end().catch(() => {});
  }

  #setHealthy(healthy: boolean): void {
    if (this.#healthy === healthy) return;
    if (!healthy) this.#lastHealthyAt = new Date();
    this.#healthy = healthy;
    for (const l of [...this.#health]) {
      try {
        l(healthy);
      } catch (err) {
        this.log.error({ err }, 'cluster channel: a health listener failed');
      }
    }
  }

  #flush(): Promise<void> {
    this.#chain = this.#chain.then(async () => {
      const batch = this.#queue.splice(0);
      for (const payload of this.#pack(batch.map((p) => p.message))) {
        try {
          // The listening connection keeps them in order; if it just broke, the pool still reaches the others.
          await this.#notify(this.#healthy && this.#client ? this.#client : this.db, payload).catch(() => this.#notify(this.db, payload));
        } catch (err) {
          this.stats.dropped += 1;
          this.log.warn({ err }, 'cluster channel: a notification could not be sent');
        }
      }
      for (const p of batch) p.done();
    });
    return this.#chain;
  }

  async #notify(via: pg.Client | Db, payload: string): Promise<void> {
    if (via instanceof pg.Client) await via.query('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, payload]);
    else await via.execute(sql`SELECT pg_notify(${CLUSTER_CHANNEL}, ${payload})`);
    this.stats.sent += 1;
  }

  /** Envelopes of at most MAX_PAYLOAD_BYTES; an event too large on its own becomes an 'event-changed' hint. */
  #pack(messages: ClusterMessage[]): string[] {
    const head = `{"from":${JSON.stringify(this.processId)},"messages":[`;
    const payloads: string[] = [];
    let parts: string[] = [];
    let size = head.length + 2;
    for (const message of messages) {
      let json = JSON.stringify(message);
      if (Buffer.byteLength(json) + head.length + 2 > MAX_PAYLOAD_BYTES) {
        if (message.kind !== 'event') {
          this.log.error({ kind: message.kind }, 'cluster channel: a message is too large to send; dropped');
          continue;
        }
        const { event } = message;
        json = JSON.stringify({
          kind: 'event-changed',
          clientId: message.clientId,
          type: event.type,
          id: event.type === 'test' ? event.data.runTestId : event.data.runId,
        } satisfies ClusterMessage);
      }
      const bytes = Buffer.byteLength(json) + 1;
      if (parts.length > 0 && size + bytes > MAX_PAYLOAD_BYTES) {
        payloads.push(`${head}${parts.join(',')}]}`);
        parts = [];
        size = head.length + 2;
      }
      parts.push(json);
      size += bytes;
    }
    if (parts.length > 0) payloads.push(`${head}${parts.join(',')}]}`);
    return payloads;
  }

  #receive(payload: string): void {
    let parsed: z.infer<typeof envelope>;
    try {
      parsed = envelope.parse(JSON.parse(payload));
    } catch {
      this.log.warn('cluster channel: a notification that is not ours was ignored');
      return;
    }
    if (parsed.from === this.processId) return;
    this.stats.received += 1;
    for (const raw of parsed.messages) {
      const message = clusterMessage.safeParse(raw);
      if (!message.success) {
        this.log.warn({ issues: message.error.issues.length }, 'cluster channel: a message of an unknown shape was ignored');
        continue;
      }
      // The message as sent, not as parsed: an event's JSON keeps its key order (streams compare it to what they sent).
      for (const l of this.#listeners.get(message.data.kind) ?? []) {
        try {
          l(raw as ClusterMessage);
        } catch (err) {
          this.log.error({ err, kind: message.data.kind }, 'cluster channel: a listener failed');
        }
      }
    }
  }
}
