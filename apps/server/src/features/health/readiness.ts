import type { EngineReadiness } from '@fullstop/contracts';
import { checkEngines, type EnginePaths, engineProblemLine } from '@fullstop/engine/engines';
import type { Env } from '../../config/env.ts';

/** How long the public answer reuses a check: GET /readyz never starts programs more often than this. */
export const READINESS_MAX_AGE_MS = 60_000;
/** The operators' "check now" reuses a check this recent: a script calling it in a loop starts no program storm. */
export const OPERATOR_RECHECK_MS = 5_000;

interface Logger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface Readiness {
  /** The last check when it is recent, else a new one (the public route). */
  latest(): Promise<EngineReadiness>;
  /** A check now, or one of the last few seconds (the operators' route, after they installed something). */
  check(): Promise<EngineReadiness>;
}

export function enginePaths(env: Env): EnginePaths {
  return { chromiumPath: env.CHROMIUM_PATH, wapitiPath: env.WAPITI_PATH };
}

/** One line per engine that is missing, saying which tests cannot run and how to install it; one line when all are there. */
export function logReadiness(log: Logger, readiness: EngineReadiness): void {
  const missing = readiness.engines.filter((e) => !e.ok);
  for (const e of missing) log.warn({ engine: e.engine, location: e.location, kinds: e.kinds }, `engine missing: ${engineProblemLine(e)}`);
  if (missing.length === 0) {
    log.info({ engines: Object.fromEntries(readiness.engines.map((e) => [e.engine, e.version])) }, 'every engine is installed');
  }
}

/**
 * The engines of this process's machine (programs at CHROMIUM_PATH and WAPITI_PATH, the kinds' packages),
 * checked at most once at a time: concurrent callers share the check under way.
 */
export function createReadiness(env: Env, maxAgeMs = READINESS_MAX_AGE_MS): Readiness {
  const paths = enginePaths(env);
  let last: { at: number; result: EngineReadiness } | null = null;
  let running: Promise<EngineReadiness> | null = null;
  const check = () => {
    running ??= checkEngines(paths)
      .then((result) => {
        last = { at: Date.now(), result };
        return result;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  return {
    check: () => (last && Date.now() - last.at < OPERATOR_RECHECK_MS ? Promise.resolve(last.result) : check()),
    latest: () => (last && Date.now() - last.at < maxAgeMs ? Promise.resolve(last.result) : check()),
  };
}
