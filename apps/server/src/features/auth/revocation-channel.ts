import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Db } from '../../db/database.ts';
import { publishRevocation, REVOCATION_CHANNEL as CHANNEL } from './session-repository.ts';

const RECONNECT_MS = 1_000;

/**
 * Revoked sessions announced to every API process on one PostgreSQL database (LISTEN/NOTIFY), so each may
 * remember live sessions in memory and still forget a revoked one within milliseconds. A notification sent
 * inside a transaction is delivered when it commits. While the listening connection is down nothing can be
 * promised: `healthy` is false and the caller must ask the database on every call; `onReset` runs whenever
 * notifications may have been missed (the memory must be emptied).
 */
export class RevocationChannel {
  #client: pg.Client | null = null;
  #healthy = false;
  #closed = false;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly onMessage: (message: string) => void,
    private readonly onReset: () => void,
    private readonly log: FastifyBaseLogger,
  ) {}

  get healthy(): boolean {
    return this.#healthy;
  }

  async start(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.url });
    const lost = (err?: unknown) => {
      if (this.#client !== client) return;
      this.#client = null;
      this.#healthy = false;
      this.onReset();
      client.end().catch(() => {});
      if (this.#closed) return;
      this.log.warn({ err }, 'session revocation channel lost; asking the database on every call until it is back');
      this.#timer = setTimeout(() => void this.start(), RECONNECT_MS);
      this.#timer.unref();
    };
    this.#client = client;
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (n) => {
      if (n.channel === CHANNEL && n.payload) this.onMessage(n.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      // Anything revoked before LISTEN took effect was missed: start from an empty memory.
      this.onReset();
      this.#healthy = this.#client === client;
    } catch (err) {
      lost(err);
    }
  }

  /** Announces a revocation; with a transaction's handle it is sent when that transaction commits. */
  async publish(db: Db, message: string): Promise<void> {
    await publishRevocation(db, message);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#healthy = false;
    if (this.#timer) clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }
}
