import { z } from 'zod';

/** What a process of an installation does: serve the API (and maybe run tests), or only run tests. */
export const processRole = z.enum(['api', 'worker']);
export type ProcessRole = z.infer<typeof processRole>;

/**
 * Whether the tests a process runs are kept away from the server (decision 0077): the OS user its runner processes
 * run as (null: the server's own, ENGINE_RUNNER_USER unset), and whether Chromium runs its own sandbox, else why not.
 */
export const processIsolation = z.object({
  runnerUser: z.string().nullable(),
  chromiumSandbox: z.boolean(),
  /** Why Chromium runs without its sandbox; null when it has it. */
  reason: z.string().nullable(),
});
export type ProcessIsolation = z.infer<typeof processIsolation>;

/** One server process, as its heartbeat last described it. */
export const systemProcess = z.object({
  /** hostname:pid:random, the id written on every test attempt it runs. */
  id: z.string(),
  role: processRole,
  host: z.string(),
  pid: z.number().int(),
  version: z.string(),
  startedAt: z.string(),
  lastSeenAt: z.string(),
  /** Its heartbeat is recent: the process is running. */
  alive: z.boolean(),
  /** Tests it may run at once (0: an API process that only queues). */
  workers: z.number().int(),
  /** Tests it is running now. */
  running: z.number().int(),
  /** How its runners are isolated; null for a process that runs no tests, or one of a version before this was reported. */
  isolation: processIsolation.nullable(),
});
export type SystemProcess = z.infer<typeof systemProcess>;

/** The console's System page: the processes of the installation, where artifacts go, and the queue. */
export const opsSystem = z.object({
  processes: z.array(systemProcess),
  database: z.enum(['embedded', 'postgresql']),
  artifacts: z.object({
    kind: z.enum(['data-dir', 's3']),
    /** The data directory's folder, or the bucket (and its endpoint's host). */
    location: z.string(),
  }),
  queue: z.object({ queued: z.number().int(), running: z.number().int() }),
  /** A process whose heartbeat is older than this (seconds) is shown as stopped. */
  aliveWithinSeconds: z.number().int(),
});
export type OpsSystem = z.infer<typeof opsSystem>;

/** Heartbeats are written this often (seconds); three missed ones mean the process is gone. */
export const PROCESS_HEARTBEAT_SECONDS = 15;
export const PROCESS_ALIVE_SECONDS = 3 * PROCESS_HEARTBEAT_SECONDS;
