import type { ArtifactStore } from '../../lib/artifact-store/index.ts';
import type { KindValidator, TestKind } from '@fullstop/engine';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Db, RawDatabase } from '../../db/database.ts';
import type { Paths } from '../../lib/data-dir.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import type { EngineConfig } from './config.ts';
import type { EngineBus } from '../runs/index.ts';
import type { RunRow } from '../runs/index.ts';

/** Everything the engine's services need, built once by the plugin (or by `fullstop worker` without HTTP). */
export interface EngineDeps {
  db: Db;
  raw: RawDatabase;
  paths: Paths;
  /** Reports, traces and uploads: the data directory, or S3 shared by every process (lib/artifact-store). */
  artifacts: ArtifactStore;
  config: EngineConfig;
  /** Opens the clients' login secrets for the runs (decision 0060). */
  keys: ServerKeys;
  /**
   * The registry suites are validated against (the runs themselves load their runner in a runner process): the
   * engine's validators, which leave the runners' code out of this process, or a test's own runners.
   */
  runners: Partial<Record<TestKind, KindValidator>>;
  /** A module exporting `runners` that runner processes load instead of the engine's own (tests). */
  runnersModule: string | undefined;
  bus: EngineBus;
  log: FastifyBaseLogger;
  /** hostname:pid:random, written on every attempt so an operator sees who ran it. */
  workerId: string;
  demoClientId: string | null;
  /** Starts pg-boss on first use (the API tests never pay for it unless they queue a run). */
  boss(): Promise<PgBoss>;
  /** Reports and insights of this client changed: drop its cached reads. */
  onResultsChanged(clientId: string): void;
  /** Wakes this process's idle workers at once (this process just queued jobs). */
  wakeWorkers(): void;
  /** Called once a run has ended (bug retests listen); a listener that fails is logged, never fails the run. */
  runFinished: ((run: RunRow) => Promise<void>)[];
}
