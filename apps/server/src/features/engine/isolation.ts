import type { ProcessIsolation } from '@fullstop/contracts';
import { chromiumSandboxSupport } from '@fullstop/engine/sandbox';
import type { EngineConfig } from './config.ts';

/**
 * How this process's runners are kept away from the server, for the console's System page (decision 0077): the
 * user they run as (null: the server's own) and whether Chromium has its own sandbox. Null for a process that
 * runs no tests (`workers` 0), where neither means anything.
 */
export function runnerIsolation(config: Pick<EngineConfig, 'runnerUser'>, workers: number): ProcessIsolation | null {
  if (workers <= 0) return null;
  const sandbox = chromiumSandboxSupport(config.runnerUser);
  return { runnerUser: config.runnerUser?.name ?? null, chromiumSandbox: sandbox.ok, reason: sandbox.ok ? null : sandbox.reason };
}
