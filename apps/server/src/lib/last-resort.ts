import type { FastifyBaseLogger } from 'fastify';

/** Time in-flight requests get to finish after an uncaught exception, before the process exits anyway. */
export const FATAL_CLOSE_GRACE_MS = 10_000;

/**
 * The process-level last resort, installed once by main. The real defence is an `error` listener on every
 * socket and stream from the moment it exists; this only decides what happens when one was missed.
 * - A rejected promise nobody awaited leaves no state half-changed: it is logged and the server keeps serving.
 * - An uncaught exception may have left anything half-done, and Node says resuming is unsafe: it is logged,
 *   the server stops taking requests, lets those in flight finish, and exits non-zero. Runs in progress are
 *   picked up again by the next start (their attempts' heartbeats stop).
 */
export function installLastResort(log: FastifyBaseLogger, close: () => Promise<void>): void {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled promise rejection (logged; the server keeps serving)');
  });
  process.on('uncaughtException', (err, origin) => {
    log.fatal({ err, origin }, 'uncaught exception: closing the server');
    const force = setTimeout(() => process.exit(1), FATAL_CLOSE_GRACE_MS);
    force.unref();
    close().finally(() => process.exit(1));
  });
}
