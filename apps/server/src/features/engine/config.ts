import path from 'node:path';
import { z } from 'zod';
import type { TestKind } from '@fullstop/engine';
import { ConfigError } from '../../config/env.ts';

const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

/** Seconds a run of each kind may take before it is stopped and ends as an error (a manifest may override). */
export const DEFAULT_TIME_LIMITS: Record<TestKind, number> = {
  browser: 600,
  accessibility: 300,
  lighthouse: 300,
  load: 300,
  'security-scan': 900,
  'security-checks': 120,
  api: 120,
  'mobile-static': 180,
};

/**
 * The engine's settings. They live beside the feature (the core's env schema does not know them) but follow
 * the same rule: parsed once, a bad value stops the start with the variable's name.
 */
const engineEnvSchema = z.object({
  /** In-process workers: how many tests this process runs at once. 0 = this process only queues. */
  ENGINE_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  /** Parallel Playwright workers inside one browser test. */
  ENGINE_BROWSER_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  /** Retries of a test run that errored (could not run; a failed test is a result and is never retried). */
  ENGINE_RETRIES: z.coerce.number().int().min(0).max(5).default(1),
  ENGINE_RETRY_DELAY: z.coerce.number().int().min(0).max(3600).default(2),
  /** An attempt whose heartbeat is older than this (seconds) belonged to a dead process. */
  ENGINE_STALE_AFTER: z.coerce.number().int().min(5).max(3600).default(30),
  ENGINE_ALLOW_PRIVATE_TARGETS: bool.default(false),
  /** Import suites/demo for the demo client at start-up when it has none. */
  ENGINE_DEMO_SUITE: bool.default(true),
  CHROMIUM_PATH: z.string().default('/usr/bin/chromium'),
  /** Memory of one attempt's whole process tree (runner, browsers, tools), MB; over it the attempt is killed. */
  ENGINE_RUN_MEMORY_MB: z.coerce.number().int().min(128).max(65_536).default(2048),
  /** Tests and benches only: a module exporting `runners` that runner processes load instead of the engine's. */
  ENGINE_RUNNERS_MODULE: z.string().refine((p) => path.isAbsolute(p), 'must be an absolute path').optional(),
});

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
  runMemoryMb: number;
  runnersModule: string | undefined;
  timeLimits: Record<TestKind, number>;
}

/** Defaults: 4 in-process workers (most of a test's time is spent waiting on a browser or the network), none under NODE_ENV=test. */
export function loadEngineConfig(source: NodeJS.ProcessEnv, nodeEnv: string): EngineConfig {
  const parsed = engineEnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const staleAfter = e.ENGINE_STALE_AFTER;
  return {
    workers: e.ENGINE_WORKERS ?? (nodeEnv === 'test' ? 0 : 4),
    browserWorkers: e.ENGINE_BROWSER_WORKERS,
    retries: e.ENGINE_RETRIES,
    retryDelaySeconds: e.ENGINE_RETRY_DELAY,
    staleAfterSeconds: staleAfter,
    heartbeatSeconds: Math.max(1, Math.floor(staleAfter / 6)),
    allowPrivateTargets: e.ENGINE_ALLOW_PRIVATE_TARGETS,
    demoSuite: e.ENGINE_DEMO_SUITE && nodeEnv !== 'test',
    chromiumPath: e.CHROMIUM_PATH,
    runMemoryMb: e.ENGINE_RUN_MEMORY_MB,
    runnersModule: e.ENGINE_RUNNERS_MODULE,
    timeLimits: { ...DEFAULT_TIME_LIMITS },
  };
}
