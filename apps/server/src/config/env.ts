import path from 'node:path';
import { DEFAULT_CHROMIUM_PATH } from '@fullstop/engine/chromium';
import { z } from 'zod';
import { trustProxySetting } from './trust-proxy.ts';

const bool = z
  .enum(['0', '1', 'true', 'false'])
  .transform((v) => v === '1' || v === 'true');

const seconds = z.coerce.number().int().positive();

/** The user names ENGINE_RUNNER_USER lists: one, or several separated by commas (a pool). */
export const runnerUserNames = (value: string): string[] => value.split(',').map((name) => name.trim());

/**
 * Every setting the server reads, parsed once at start-up. A bad value stops the server with a message
 * naming the variable; nothing else in the code reads process.env.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  /** The embedded database's buffer pool (PostgreSQL's shared_buffers), resident from start: see db/database.ts. */
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(1024).default(16),
  WEB_DIST_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Whose X-Forwarded-For to believe: a hop count (1) or the proxies' addresses/CIDRs; unset: nobody's (config/trust-proxy.ts). */
  TRUST_PROXY: trustProxySetting,
  CONTACT_EMAIL: z.email().default('contact@fullstop.test'),
  /** 32 random bytes, base64 or hex. Unset: generated once in DATA_DIR/server-key. Share it between API processes. */
  SERVER_KEY: z.string().optional(),
  /** Unset: generated once in DATA_DIR/operator-token. */
  OPERATOR_TOKEN: z.string().min(24).optional(),
  ACCESS_TOKEN_TTL: seconds.default(900),
  REFRESH_TOKEN_TTL: seconds.default(30 * 24 * 3600),
  RESET_TOKEN_TTL: seconds.default(3600),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  LOGIN_THROTTLE_WINDOW: seconds.default(900),
  // Password-reset mails: per address asked for and per source address, in a fixed window. Over a limit the
  // answer stays the same 200 and no mail is sent, so the limit tells nothing about the account.
  FORGOT_PASSWORD_MAX_PER_ACCOUNT: z.coerce.number().int().positive().default(3),
  FORGOT_PASSWORD_MAX_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  FORGOT_PASSWORD_WINDOW: seconds.default(3600),
  UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(1024 ** 3),
  // What an uploaded APK/IPA may claim before it is refused (docs/decisions/0051-hostile-app-files.md). The
  // maximums are the analysis's own limits (ANALYSIS_ARCHIVE_LIMITS in the engine): an upload may not promise more.
  UPLOAD_MAX_ENTRIES: z.coerce.number().int().positive().max(1_000_000).default(100_000),
  UPLOAD_MAX_INFLATED_BYTES: z.coerce.number().int().positive().default(2 * 1024 ** 3),
  UPLOAD_MAX_MANIFEST_BYTES: z.coerce.number().int().positive().max(16 * 1024 ** 2).default(16 * 1024 ** 2),
  /** Files on a client's requests (its side of the threads): at most this many, and this many MB in all (413 past either). */
  REQUEST_ATTACHMENTS_MAX_COUNT: z.coerce.number().int().positive().default(500),
  REQUEST_ATTACHMENTS_MAX_TOTAL_MB: z.coerce.number().int().positive().default(2048),
  CACHE_TTL: seconds.default(60),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Fullstop QA <no-reply@fullstop.test>'),
  /** Unset: on for the embedded database only; with DATABASE_URL the demo needs FULLSTOP_DEMO=1 (see demoEnabled). */
  FULLSTOP_DEMO: bool.optional(),
  FULLSTOP_DEMO_EMAIL: z.email().default('demo@fullstop.test'),
  FULLSTOP_DEMO_PASSWORD: z.string().min(8).default('fullstop-demo'),

  // Connections and streams: how long a caller may take, and how much it may hold open.
  /** Every header of a request must arrive within this (seconds). */
  HTTP_HEADERS_TIMEOUT: seconds.default(30),
  /** A whole request (headers and body) must arrive within this (seconds); uploads have their own. */
  HTTP_REQUEST_TIMEOUT: seconds.default(120),
  /** A multipart upload must arrive within this (seconds): 1 GiB at 0.3 MB/s. Also Node's hard cap. */
  HTTP_UPLOAD_TIMEOUT: seconds.default(3600),
  /** A request whose body stops arriving for this long is dropped (seconds). */
  HTTP_IDLE_TIMEOUT: seconds.default(30),
  /** An idle keep-alive connection is closed after this (seconds); above a load balancer's usual 60. */
  HTTP_KEEP_ALIVE_TIMEOUT: seconds.default(72),
  /** Open event streams (GET /test/events) per credential: an API key, a user, or a token minted from them. */
  EVENT_STREAMS_PER_CREDENTIAL: z.coerce.number().int().positive().default(5),
  /**
   * PostgreSQL: processes tell each other run events, cache invalidations, replaced keys and revoked sessions
   * through LISTEN/NOTIFY. false behind a transaction-mode pooler (PgBouncer), where LISTEN does not work:
   * event streams then poll, and caches last at most CACHE_TTL after a write in another process.
   */
  EVENTS_VIA_NOTIFY: bool.default(true),
  /** With EVENTS_VIA_NOTIFY=false (or while its connection is down): how often one shared query looks for other processes' run changes (ms). */
  EVENT_STREAM_POLL_MS: z.coerce.number().int().min(50).default(2000),

  // Artifacts: reports, traces, screenshots, uploaded builds, attachments (lib/artifact-store).
  /** data-dir: under DATA_DIR/storage (one machine). s3: S3-compatible object storage shared by every process. */
  ARTIFACT_STORE: z.enum(['data-dir', 's3']).default('data-dir'),
  /** The S3 API's address (MinIO, Ceph, R2, a local test server); unset: AWS's own for S3_REGION. */
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 of a-z 0-9 . -)').optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Both or neither; neither: the AWS SDK's own chain (instance role, AWS_PROFILE, ...). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** bucket in the path instead of the host name. Unset: on when S3_ENDPOINT is set (MinIO and most others). */
  S3_FORCE_PATH_STYLE: bool.optional(),
  /** Prepended to every key, for several installations in one bucket. */
  S3_PREFIX: z.string().regex(/^[A-Za-z0-9._/-]*$/, 'may hold only A-Z a-z 0-9 . _ - /').default(''),

  // The test engine (features/engine/config.ts shapes these for it).
  /** In-process workers: the most tests this process runs at once. 0 = this process only queues. Unset: 4, none under NODE_ENV=test. */
  ENGINE_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  /**
   * Cores' worth of tests this process runs at once: each kind weighs what a run keeps busy (an API test 0.25, a
   * browser test 0.25 + 0.75 per Playwright worker, Lighthouse 1.5; docs/decisions/0069). Unset: the cores it may
   * use. 0: no capacity, ENGINE_WORKERS alone. Several worker processes on one machine: give each its share.
   */
  ENGINE_CAPACITY: z.coerce.number().min(0).max(1024).optional(),
  /**
   * Cores' worth kept for light tests (an API test, security checks, a mobile app analysis: weight at most 0.25) on top
   * of ENGINE_CAPACITY, with a worker of its own per 0.25, so one starts within seconds while heavier tests hold the
   * capacity and every worker; heavier tests never use it (docs/decisions/0091). Unset: 0.5, none under NODE_ENV=test.
   * 0: no lane. Ignored with ENGINE_CAPACITY=0.
   */
  ENGINE_LIGHT_LANE: z.coerce.number().min(0).max(16).optional(),
  /** Parallel Playwright workers inside one browser test. Unset: one per 2 cores of capacity, 1 to 4. */
  ENGINE_BROWSER_WORKERS: z.coerce.number().int().min(1).max(16).optional(),
  /** Retries of a test run that errored (could not run; a failed test is a result and is never retried). */
  ENGINE_RETRIES: z.coerce.number().int().min(0).max(5).default(1),
  ENGINE_RETRY_DELAY: z.coerce.number().int().min(0).max(3600).default(2),
  /** An attempt whose heartbeat is older than this (seconds) belonged to a dead process. */
  ENGINE_STALE_AFTER: z.coerce.number().int().min(5).max(3600).default(30),
  ENGINE_ALLOW_PRIVATE_TARGETS: bool.default(false),
  /** A load test run by several generators waits this long (seconds) for all of them to be taken by workers. */
  ENGINE_LOAD_GATHER_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  /** Import suites/demo for the demo client at start-up when it has none. */
  ENGINE_DEMO_SUITE: bool.default(true),
  /** Memory of one attempt's whole process tree (runner, browsers, tools), MB; over it the attempt is killed. */
  ENGINE_RUN_MEMORY_MB: z.coerce.number().int().min(128).max(65_536).default(2048),
  /**
   * Runner processes forked and loaded ahead of their tests (the warm pool, docs/decisions/0068; at most 2 and
   * never more than ENGINE_WORKERS): each still runs one test. Emptied 15 s after the last test ends (decision
   * 0105). 0: a fresh fork per test.
   */
  ENGINE_WARM_RUNNERS: z.coerce.number().int().min(0).max(2).default(1),
  /**
   * Firefox starts on a copy of a profile template the server makes when a test first asks for Firefox (decision
   * 0111): about 1.5-2 CPU-s less a start. Only where attempts run as users of their own (a root server). 0: cold.
   */
  ENGINE_WARM_FIREFOX: bool.default(true),
  /**
   * The OS users runner processes and their browsers run as (docs/decisions/0077, issue 37): not the server's, so a
   * page that takes a browser over cannot read DATA_DIR or the server's /proc. The server must be root to switch.
   * - Several names, comma-separated (`fullstop-runner-1,fullstop-runner-2,...`): a pool; each running test leases
   *   a user of its own, so tests running at once cannot read each other's processes or folders either. Each must
   *   exist and be dedicated to this (every process it still has when its test ends is killed). Fewer names than
   *   tests at once: the others wait for a free one. Fullstop processes on one machine share a list safely.
   * - One name: every test runs as that user, tests running at once share it (as before the pools).
   * - Unset: a server running as root makes its own pool (`fullstop-runner-1` ..., created with useradd when
   *   missing, one per worker plus the warm pool's runners plus one), or refuses to run tests, saying how to fix it,
   *   when it cannot; a non-root server runs them as itself, with a warning in production. Tests (NODE_ENV=test)
   *   run them as the server's user unless this is set.
   */
  ENGINE_RUNNER_USER: z
    .string()
    .refine((v) => runnerUserNames(v).every((name) => /^[a-z_][a-z0-9_-]*[$]?$/i.test(name) && name.length <= 32), 'must be a user name, or several separated by commas (a pool, one per test running at once)')
    .refine((v) => new Set(runnerUserNames(v)).size === runnerUserNames(v).length, 'names a user twice')
    .refine((v) => runnerUserNames(v).length <= 256, 'names more than 256 users')
    .optional(),
  /** Tests and benches only: a module exporting `runners` that runner processes load instead of the engine's. */
  ENGINE_RUNNERS_MODULE: z.string().refine((p) => path.isAbsolute(p), 'must be an absolute path').optional(),
  /** Print every html report to pdf (and shrink screenshots) with Chromium. Unset: on, off under NODE_ENV=test. */
  ENGINE_REPORT_PDF: bool.optional(),
  /** The engine's Chromium (unset: Debian's headless shell where installed, else its full Chromium). */
  CHROMIUM_PATH: z.string().default(DEFAULT_CHROMIUM_PATH),
  WAPITI_PATH: z.string().default('/usr/bin/wapiti'),
  /** Check every engine (Chromium, wapiti, ...) at start and log each one missing. Unset: on, off under NODE_ENV=test (checked when first asked). */
  ENGINE_READINESS_CHECK: bool.optional(),

  // Bug export to the client's tracker (features/integrations).
  /** GitHub's REST API (GitHub Enterprise: https://HOST/api/v3; tests: a local fake). */
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  /** Deliveries are retried after this many seconds, doubled each time (0: at once; tests). */
  INTEGRATIONS_RETRY_DELAY: z.coerce.number().min(0).max(3600).default(30),
  /** Attempts of one delivery before it is given up. */
  INTEGRATIONS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  /** How often exported issues are read back from GitHub and Jira (seconds; 0: only on demand). */
  INTEGRATIONS_SYNC_INTERVAL: z.coerce.number().int().min(0).default(600),
  /** Work deliveries and syncs in this process. Unset: on, off under NODE_ENV=test (tests call them). */
  INTEGRATIONS_WORKER: bool.optional(),

  // The delivery outbox of alerts and trackers (features/outbox, decision 0075).
  /** Deliveries one outbox works at once in one process. */
  OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /** Deliveries of one client held at once, by all processes together: one client's slow receiver cannot take every slot. */
  OUTBOX_CLIENT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(2),
  /** How long a claimed delivery is kept from other processes (seconds); renewed every third of it while it runs. */
  OUTBOX_CLAIM_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),

  // Deletion of old runs and builds (features/retention; the privacy policy states the default).
  /** How often this process sweeps (seconds; 0: never). Unset: hourly, never under NODE_ENV=test (tests call the sweep). */
  RETENTION_SWEEP_INTERVAL: z.coerce.number().int().min(0).optional(),
  /** Evaluate finished runs and deliver alerts in this process. Unset: on, off under NODE_ENV=test (tests call them). */
  ALERTS_WORKER: bool.optional(),
  /** Alert channels one client may have (decision 0076). */
  ALERT_CHANNELS_MAX: z.coerce.number().int().min(1).max(1000).default(20),
  /** One test alert or confirmation mail per channel in this many seconds. */
  ALERT_TEST_INTERVAL: seconds.default(60),
  /** Test alerts and confirmation mails one client may set off in an hour. */
  ALERT_MESSAGES_PER_HOUR: z.coerce.number().int().min(1).max(10000).default(20),
}).superRefine((env, ctx) => {
  if (env.ARTIFACT_STORE === 's3' && !env.S3_BUCKET) {
    ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required with ARTIFACT_STORE=s3' });
  }
  if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
    const missing = env.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY';
    ctx.addIssue({ code: 'custom', path: [missing], message: 'is required with the other S3 credential (set both, or neither for the AWS chain)' });
  }
});

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** The product's own address, used in emails and as the demo client's website. */
export function publicUrl(env: Env): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
}
