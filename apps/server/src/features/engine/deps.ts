import type { Runner, TestKind } from '@fullstop/engine';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Db, RawDatabase } from '../../db/database.ts';
import type { Paths } from '../../lib/data-dir.ts';
import type { EngineConfig } from './config.ts';
import type { EngineBus } from './runs/events.ts';

/** Everything the engine's services need, built once by the plugin (or by `fullstop worker` without HTTP). */
export interface EngineDeps {
  db: Db;
  raw: RawDatabase;
  paths: Paths;
  config: EngineConfig;
  runners: Partial<Record<TestKind, Runner>>;
  bus: EngineBus;
  log: FastifyBaseLogger;
  /** hostname:pid:random, written on every attempt so an operator sees who ran it. */
  workerId: string;
  demoClientId: string | null;
  /** Starts pg-boss on first use (the API tests never pay for it unless they queue a run). */
  boss(): Promise<PgBoss>;
  /** Reports and insights of this client changed: drop its cached reads. */
  onResultsChanged(clientId: string): void;
  /** The workers of this process, woken at once when this process queues a job. */
  workerIds: string[];
}
