import { type ArtifactStore, DataDirStore } from '../../lib/artifact-store/index.ts';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { type Runner, type TestKind, validators } from '@fullstop/engine';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Db, RawDatabase } from '../../db/database.ts';
import type { Paths } from '../../lib/data-dir.ts';
import type { EngineConfig } from './config.ts';
import type { EngineDeps } from './deps.ts';
import { startBoss } from '../queue/index.ts';
import { startWorkers, type WorkerPool } from './workers.ts';
import { EngineBus } from '../runs/index.ts';
import { type Scheduler, type SchedulerOptions, startScheduler } from '../schedules/index.ts';
import type { ClusterChannel } from '../../lib/cluster-channel.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';

/** How long a stopping process waits for its aborted runs to record their attempts. */
const STOP_GRACE_MS = 15_000;

export interface Engine {
  deps: EngineDeps;
  /** Starts `count` in-process workers (the server does this from ENGINE_WORKERS; tests call it themselves). */
  startWorkers(count: number): Promise<void>;
  /** Runs the clients' schedules from this process too (pg-boss's cron: one tick a minute whatever the number of processes). */
  startScheduler(options?: SchedulerOptions): Promise<void>;
  stop(): Promise<void>;
}

export function createEngine(input: {
  db: Db;
  raw: RawDatabase;
  paths: Paths;
  config: EngineConfig;
  keys: ServerKeys;
  log: FastifyBaseLogger;
  demoClientId: string | null;
  runners?: Partial<Record<TestKind, Runner>>;
  /** A module exporting `runners` for the runner processes (tests); ENGINE_RUNNERS_MODULE otherwise. */
  runnersModule?: string;
  onResultsChanged?: (clientId: string) => void;
  /** Where run folders are published and read from; the data directory's store when not given. */
  artifacts?: ArtifactStore;
  /** PostgreSQL: the engine's events go to every other process through it too. */
  channel?: ClusterChannel | null;
}): Engine {
  const channel = input.channel ?? null;
  let boss: Promise<PgBoss> | null = null;
  const pools: WorkerPool[] = [];
  let scheduler: Scheduler | null = null;
  const deps: EngineDeps = {
    db: input.db,
    raw: input.raw,
    paths: input.paths,
    artifacts: input.artifacts ?? new DataDirStore(input.paths.storage),
    config: input.config,
    keys: input.keys,
    runners: input.runners ?? validators,
    runnersModule: input.runnersModule ?? input.config.runnersModule,
    bus: new EngineBus(channel ? (clientId, event) => void channel.publish({ kind: 'event', clientId, event }) : undefined),
    log: input.log,
    workerId: `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    demoClientId: input.demoClientId,
    wakeWorkers() {
      for (const p of pools) p.wake();
    },
    onResultsChanged: input.onResultsChanged ?? (() => {}),
    runFinished: [],
    boss() {
      boss ??= startBoss(input.raw, (err) => input.log.error({ err }, 'queue error'));
      return boss;
    },
  };
  return {
    deps,
    async startWorkers(count) {
      if (count > 0) pools.push(await startWorkers(deps, count, { embedded: input.raw.kind === 'pglite' }));
    },
    async startScheduler(options) {
      scheduler ??= await startScheduler(deps, options);
    },
    async stop() {
      await scheduler?.stop();
      scheduler = null;
      for (const p of pools.splice(0)) await p.stop();
      if (boss) {
        const b = await boss.catch(() => null);
        await b?.stop({ graceful: true, wait: true, timeout: STOP_GRACE_MS }).catch(() => {});
        boss = null;
      }
    },
  };
}
