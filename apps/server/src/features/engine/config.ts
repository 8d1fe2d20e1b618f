import type { Env } from '../../config/env.ts';

/** The engine's settings, shaped from the one validated environment (config/env.ts holds the ENGINE_* variables). */
export interface EngineConfig {
  workers: number;
  browserWorkers: number;
  retries: number;
  retryDelaySeconds: number;
  staleAfterSeconds: number;
  heartbeatSeconds: number;
  allowPrivateTargets: boolean;
  demoSuite: boolean;
  chromiumPath: string;
  /** Reports get a pdf and shrunk screenshots (Chromium launched by the process that finishes the test). */
  reportPdf: boolean;
  wapitiPath: string;
  runMemoryMb: number;
  /** How long the generators of a load test wait for each other before the test ends as an error (issue 12). */
  loadGatherSeconds: number;
  runnersModule: string | undefined;
  /** This process runs the clients' schedules (every API and worker process; the API tests tick by hand). */
  scheduler: boolean;
}

/** Defaults: 4 in-process workers (most of a test's time is spent waiting on a browser or the network), none under NODE_ENV=test. */
export function engineConfig(env: Env): EngineConfig {
  const staleAfter = env.ENGINE_STALE_AFTER;
  return {
    workers: env.ENGINE_WORKERS ?? (env.NODE_ENV === 'test' ? 0 : 4),
    browserWorkers: env.ENGINE_BROWSER_WORKERS,
    retries: env.ENGINE_RETRIES,
    retryDelaySeconds: env.ENGINE_RETRY_DELAY,
    staleAfterSeconds: staleAfter,
    heartbeatSeconds: Math.max(1, Math.floor(staleAfter / 6)),
    allowPrivateTargets: env.ENGINE_ALLOW_PRIVATE_TARGETS,
    demoSuite: env.ENGINE_DEMO_SUITE && env.NODE_ENV !== 'test',
    chromiumPath: env.CHROMIUM_PATH,
    // The API tests finish hundreds of runs: a browser for each would cost minutes; the tests that check pdfs turn it on.
    reportPdf: env.ENGINE_REPORT_PDF ?? env.NODE_ENV !== 'test',
    wapitiPath: env.WAPITI_PATH,
    runMemoryMb: env.ENGINE_RUN_MEMORY_MB,
    loadGatherSeconds: env.ENGINE_LOAD_GATHER_SECONDS,
    runnersModule: env.ENGINE_RUNNERS_MODULE,
    scheduler: env.NODE_ENV !== 'test',
  };
}
