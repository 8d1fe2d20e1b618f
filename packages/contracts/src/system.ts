import { z } from 'zod';

/** What a process of an installation does: serve the API (and maybe run tests), or only run tests. */
export const processRole = z.enum(['api', 'worker']);
export type ProcessRole = z.infer<typeof processRole>;

/** Who a process's runner processes run as (issue 37). */
export const runnerUsersMode = z.enum([
  /** A pool: each running test leases a user of its own. */
  'pool',
  /** One user (ENGINE_RUNNER_USER names one), shared by the tests running at once. */
  'shared',
  /** The server's own user (a non-root server, ENGINE_RUNNER_USER unset). */
  'server',
  /** None: the process refuses to run tests (a root server that could not get runner users); `problem` says how to fix it. */
  'refused',
]);
export type RunnerUsersMode = z.infer<typeof runnerUsersMode>;

/**
 * How a process makes sure nothing a test started outlives it, detached or not (issue 37): the test's cgroups are
 * killed whole; every process of its leased runner user is killed; its runner process is a child subreaper that
 * kills its tree; or only the test's tagged processes and their descendants are (one that drops the tag may stay).
 */
export const attemptEndHow = z.enum(['cgroup', 'runner-user', 'subreaper', 'tags']);
export type AttemptEndHow = z.infer<typeof attemptEndHow>;

/**
 * Whether the tests a process runs are kept away from the server and from each other (decisions 0077, issue 37): the
 * OS user its runner processes run as (null: the server's own, or none), whether Chromium runs its own sandbox, else
 * why not, and (since issue 37, absent from the rows of older versions) its runner users, how a test's processes are
 * all ended with it, and whether each test gets a network namespace of its own.
 */
export const processIsolation = z.object({
  /** The user, or the pool's first and last names; null: the server's own user (or none: `runnerUsers.mode` says). */
  runnerUser: z.string().nullable(),
  chromiumSandbox: z.boolean(),
  /** Why Chromium runs without its sandbox; null when it has it. */
  reason: z.string().nullable(),
  runnerUsers: z
    .object({
      mode: runnerUsersMode,
      /** The pool's users, or the shared one; empty for the server's own user or none. */
      names: z.array(z.string()),
      /** Why tests are refused, or why the pool holds fewer users than the tests that may run at once; null when neither. */
      problem: z.string().nullable(),
    })
    .optional(),
  attemptEnd: z.object({ how: attemptEndHow }).optional(),
  /** Each test's own network namespace, whose only way out is the policy proxy; else why not. */
  networkNamespace: z.object({ ok: z.boolean(), reason: z.string().nullable() }).optional(),
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
  /** The queued tests in the order they start, each with about when (issue 39); the first 50. Absent from older servers. */
  waiting: z
    .array(z.object({ runTestId: z.string(), runId: z.string(), clientId: z.string(), clientName: z.string(), testName: z.string(), kind: z.string(), position: z.number().int(), startsInSeconds: z.number().int() }))
    .optional(),
  /** A process whose heartbeat is older than this (seconds) is shown as stopped. */
  aliveWithinSeconds: z.number().int(),
});
export type OpsSystem = z.infer<typeof opsSystem>;

/** Heartbeats are written this often (seconds); three missed ones mean the process is gone. */
export const PROCESS_HEARTBEAT_SECONDS = 15;
export const PROCESS_ALIVE_SECONDS = 3 * PROCESS_HEARTBEAT_SECONDS;
