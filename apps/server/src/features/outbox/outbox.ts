import type { DeliveryState } from '@fullstop/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/database.ts';
import { OutboundUnreachableError } from '../../lib/outbound-http.ts';
import { type AttemptTable, claimDueDeliveries, clientsWithRoom, type DeliveryTable, recordAttempt, renewClaims } from './repository.ts';

/** The far end answered, but not with what was asked: its status and a short reason. */
export class AnswerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A delivery that can never succeed (its channel or connection is gone): recorded once, never retried. */
export class UndeliverableError extends Error {}

/** What an attempt ended with: the far end's status (null where there is none) and the error (null: delivered). */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
}

/** How a failed attempt is recorded and told. */
export function problemOf(err: unknown): { statusCode: number | null; error: string } {
  if (err instanceof AnswerError) return { statusCode: err.status, error: err.message };
  if (err instanceof OutboundUnreachableError) return { statusCode: null, error: `could not reach it: ${err.message}` };
  return { statusCode: null, error: err instanceof Error ? err.message : String(err) };
}

/** A delivery's state and last answer as the API tells them (the `deliveryState` part of each feature's contract). */
export function deliveryStateOf(row: Omit<DeliveryState, 'createdAt' | 'lastAttemptAt'> & { createdAt: Date; lastAttemptAt: Date | null }): DeliveryState {
  return {
    status: row.status,
    statusCode: row.statusCode,
    error: row.error,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  };
}

/** The row every delivery table has, whatever else the feature keeps in it. */
export interface DeliveryRow {
  id: string;
  clientId: string;
  kind: string;
  attempts: number;
}

export interface OutboxOptions<Row extends DeliveryRow> {
  db: Db;
  env: Pick<Env, 'INTEGRATIONS_MAX_ATTEMPTS' | 'INTEGRATIONS_RETRY_DELAY' | 'OUTBOX_CONCURRENCY' | 'OUTBOX_CLIENT_CONCURRENCY' | 'OUTBOX_CLAIM_SECONDS'>;
  log: FastifyBaseLogger;
  deliveries: DeliveryTable & { $inferSelect: Row };
  attempts: AttemptTable;
  /** One attempt: the far end's HTTP status (null where there is none) on success; throws otherwise. */
  send: (delivery: Row) => Promise<number | null>;
  /** The log lines of a failed attempt and of a failed pass ("an alert delivery failed", "alert deliveries failed"). */
  says: { attemptFailed: string; passFailed: string };
}

/**
 * The outbox of an outbound feature: deliveries queued in its table are claimed by one process at a time, attempted,
 * and retried with exponential backoff (INTEGRATIONS_RETRY_DELAY, doubled each time) until delivered or
 * INTEGRATIONS_MAX_ATTEMPTS, when they stay as failed (the dead letters, listed with their attempts).
 *
 * Up to OUTBOX_CONCURRENCY deliveries run at once, at most OUTBOX_CLIENT_CONCURRENCY of one client (counted over
 * every process's claims), so one client's slow receiver holds its own share and no one else's. A claim holds for
 * OUTBOX_CLAIM_SECONDS and is renewed while its delivery runs; only a process that stopped lets it run out.
 */
export class DeliveryOutbox<Row extends DeliveryRow> {
  #pass: Promise<void> | null = null;
  /** The deliveries this process is working, by id. */
  readonly #running = new Map<string, Promise<void>>();
  /** Wakes a pass waiting on slow deliveries: something was queued, look again. */
  #wake: () => void = () => undefined;
  #working = false;

  constructor(private readonly o: OutboxOptions<Row>) {}

  /** Whether this process works deliveries (a worker process), or leaves them to one. */
  get working(): boolean {
    return this.#working;
  }

  start(): void {
    this.#working = true;
  }

  async stop(): Promise<void> {
    this.#working = false;
    await this.#pass?.catch(() => undefined);
  }

  /** Something was queued: a worker process works it now rather than at its next poll. */
  kick(): void {
    if (this.#working) void this.drain().catch((err: unknown) => this.o.log.error({ err }, this.o.says.passFailed));
  }

  /**
   * Works every delivery due now, and what falls due or is queued meanwhile, until none is left that this process
   * may take (one pass at a time in a process: a second call joins it and makes it look again at once).
   */
  drain(): Promise<void> {
    if (this.#pass) {
      this.#wake();
      return this.#pass;
    }
    this.#pass = this.#runPass().finally(() => {
      this.#pass = null;
    });
    return this.#pass;
  }

  /** One attempt now of a delivery queued not due, recorded like any other and never retried ("send a test"). */
  async attemptOnce(delivery: { id: string }, send: () => Promise<number | null>): Promise<AttemptOutcome & { delivered: boolean }> {
    const { outcome } = await attempt(send);
    const delivered = outcome.error === null;
    await this.#record(delivery.id, { ...outcome, delivered, retryInSeconds: null });
    return { ...outcome, delivered };
  }

  async #runPass(): Promise<void> {
    const { db, deliveries, env } = this.o;
    const renewal = setInterval(() => {
      renewClaims(db, deliveries, [...this.#running.keys()], env.OUTBOX_CLAIM_SECONDS).catch((err: unknown) => this.o.log.error({ err }, this.o.says.passFailed));
    }, (env.OUTBOX_CLAIM_SECONDS * 1000) / 3);
    renewal.unref();
    try {
      for (;;) {
        const woken = new Promise<void>((resolve) => (this.#wake = resolve));
        for (const delivery of await this.#claim()) this.#begin(delivery);
        if (!this.#running.size) return;
        await Promise.race([woken, ...this.#running.values()]);
      }
    } finally {
      clearInterval(renewal);
      this.#wake = () => undefined;
    }
  }

  /** Due deliveries for the free slots, the clients waiting longest first, none beyond its share. */
  async #claim(): Promise<Row[]> {
    const { db, deliveries, env } = this.o;
    let free = env.OUTBOX_CONCURRENCY - this.#running.size;
    if (free <= 0) return [];
    const claimed: Row[] = [];
    for (const { clientId, room } of await clientsWithRoom(db, deliveries, env.OUTBOX_CLIENT_CONCURRENCY, free)) {
      const batch = await claimDueDeliveries(db, deliveries, Math.min(room, free), env.OUTBOX_CLAIM_SECONDS, clientId);
      claimed.push(...batch);
      free -= batch.length;
      if (free <= 0) break;
    }
    return claimed;
  }

  #begin(delivery: Row): void {
    const run = this.#deliver(delivery)
      .catch((err: unknown) => this.o.log.error({ err, deliveryId: delivery.id }, this.o.says.passFailed))
      .finally(() => this.#running.delete(delivery.id));
    this.#running.set(delivery.id, run);
  }

  async #deliver(delivery: Row): Promise<void> {
    const { outcome, final } = await attempt(() => this.o.send(delivery));
    const { id, kind } = delivery;
    const delivered = outcome.error === null;
    const attempts = delivery.attempts + 1;
    const retry = !delivered && !final && attempts < this.o.env.INTEGRATIONS_MAX_ATTEMPTS;
    await this.#record(id, { ...outcome, delivered, retryInSeconds: retry ? this.o.env.INTEGRATIONS_RETRY_DELAY * 2 ** (attempts - 1) : null });
    if (!delivered) this.o.log.warn({ deliveryId: id, kind, attempts, statusCode: outcome.statusCode, error: outcome.error }, this.o.says.attemptFailed);
  }

  #record(deliveryId: string, result: Parameters<typeof recordAttempt>[3]): Promise<void> {
    return recordAttempt(this.o.db, { deliveries: this.o.deliveries, attempts: this.o.attempts }, deliveryId, result);
  }
}

async function attempt(send: () => Promise<number | null>): Promise<{ outcome: AttemptOutcome; final: boolean }> {
  try {
    return { outcome: { statusCode: await send(), error: null }, final: false };
  } catch (err) {
    return { outcome: problemOf(err), final: err instanceof UndeliverableError };
  }
}
