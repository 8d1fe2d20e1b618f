import type { DeliveryState } from '@fullstop/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/database.ts';
import { OutboundUnreachableError } from '../../lib/outbound-http.ts';
import { type AttemptTable, claimDueDeliveries, type DeliveryTable, recordAttempt } from './repository.ts';

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
  kind: string;
  attempts: number;
}

export interface OutboxOptions<Row extends DeliveryRow> {
  db: Db;
  env: Pick<Env, 'INTEGRATIONS_MAX_ATTEMPTS' | 'INTEGRATIONS_RETRY_DELAY'>;
  log: FastifyBaseLogger;
  deliveries: DeliveryTable & { $inferSelect: Row };
  attempts: AttemptTable;
  /** One attempt: the far end's HTTP status (null where there is none) on success; throws otherwise. */
  send: (delivery: Row) => Promise<number | null>;
  /** The log lines of a failed attempt and of a failed pass ("an alert delivery failed", "alert deliveries failed"). */
  says: { attemptFailed: string; passFailed: string };
}

const BATCH = 20;
const HOLD_SECONDS = 120;

/**
 * The outbox of an outbound feature: deliveries queued in its table are claimed by one process at a time, attempted,
 * and retried with exponential backoff (INTEGRATIONS_RETRY_DELAY, doubled each time) until delivered or
 * INTEGRATIONS_MAX_ATTEMPTS, when they stay as failed (the dead letters, listed with their attempts).
 */
export class DeliveryOutbox<Row extends DeliveryRow> {
  #work: Promise<void> = Promise.resolve();
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
    await this.#work.catch(() => undefined);
  }

  /** Something was queued: a worker process works it now rather than at its next poll. */
  kick(): void {
    if (this.#working) void this.drain().catch((err: unknown) => this.o.log.error({ err }, this.o.says.passFailed));
  }

  /** Works every delivery due now (one pass at a time in this process; other processes skip what this one holds). */
  drain(): Promise<void> {
    this.#work = this.#work.then(async () => {
      for (;;) {
        const batch = await claimDueDeliveries(this.o.db, this.o.deliveries, BATCH, HOLD_SECONDS);
        if (!batch.length) return;
        for (const delivery of batch) await this.#deliver(delivery);
      }
    });
    return this.#work;
  }

  /** One attempt now of a delivery queued not due, recorded like any other and never retried ("send a test"). */
  async attemptOnce(delivery: { id: string }, send: () => Promise<number | null>): Promise<AttemptOutcome & { delivered: boolean }> {
    const { outcome } = await attempt(send);
    const delivered = outcome.error === null;
    await this.#record(delivery.id, { ...outcome, delivered, retryInSeconds: null });
    return { ...outcome, delivered };
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
