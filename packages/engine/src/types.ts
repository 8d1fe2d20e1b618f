import type { CaseHeal, RunTotals } from '@fullstop/contracts';
import type { LoginSession } from './lib/login-session.ts';
import type { TargetGuardOptions } from './policy/target-guard.ts';
import type { LoginDeclaration } from './suite/login-declaration.ts';

/**
 * The engine's one interface: every kind of test is a Runner that takes a test definition and a target and
 * returns a summary plus the artifacts it wrote. The server's queue, reports and insights only see this.
 */
export const TEST_KINDS = [
  'browser',
  'accessibility',
  'lighthouse',
  'load',
  'security-scan',
  'security-checks',
  'api',
  'mobile-static',
  'visual',
  'mobile-ui',
  'manual',
  'payment',
] as const;
export type TestKind = (typeof TEST_KINDS)[number];

/**
 * What a kind needs beyond the engine's own code: a program of the machine (Chromium, wapiti) or a package of
 * node_modules. `lib/engines.ts` checks them at start and before each run (`@fullstop/engine/engines`).
 */
export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit', 'wapiti', 'playwright', 'lighthouse', 'axe', 'webdriverio', 'appium'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** One test of a client's suite, as the manifest declares it. */
export interface TestDefinition {
  /** Unique per client; the name the portal shows and `GET /test/run/{testName}` takes. */
  name: string;
  group: string;
  kind: TestKind;
  /** Kind-specific options, validated by the runner's own schema. */
  options: Record<string, unknown>;
  /** Kind-specific thresholds (e.g. p95 ms, minimum Lighthouse score). */
  thresholds?: Record<string, number>;
  /** Absolute folder of the suite version this test came from (Playwright spec files live there). */
  suiteDir?: string;
  /** The suite's login, when it has one and the test does not opt out; its secrets come with the run, not here. */
  login?: LoginDeclaration;
}

/** What a test may reach: the client's website origin, plus origins an operator added. */
export interface RunTarget {
  baseUrl: string;
  allowedOrigins: string[];
  /** Loopback and private addresses are refused unless this is true (the demo needs it). */
  allowPrivateAddresses: boolean;
  /** Absolute paths of the client's uploaded builds, when there are any. */
  androidApp?: string | null;
  iosApp?: string | null;
  /** Where a mobile UI test's devices are (issue 28): the Appium endpoint of the client's provider, when it has one. */
  appium?: AppiumEndpoint | null;
}

/** An Appium 2/3 server or a device cloud's Appium endpoint; the target policy judges its address like any other. */
export interface AppiumEndpoint {
  /** e.g. `http://127.0.0.1:4723/`, `https://hub.browserstack.com/wd/hub`. */
  url: string;
  /** The provider's user name and access key, when it asks for them (sent as the session's basic auth). */
  username?: string;
  accessKey?: string;
  /** Capabilities the provider adds to every session (e.g. `bstack:options`); the suite's own win over none of the app's. */
  capabilities?: Record<string, unknown>;
  /**
   * Each device is a session the server opens for it (AWS Device Farm's remote access session, decision 0085): the
   * runner asks for it (`RunContext.openDevice`) before the device's specs and lets it go after (`closeDevice`); its
   * Appium URL is the opened one's, `url` is not used, and the provider installs the app (no `appium:app`).
   */
  sessionPerDevice?: boolean;
}

/**
 * Which session of a browser test's cloud cell the runner asks for (decisions 0100, 0106): its page checks' (the
 * default, and a mobile UI test's device) or its spec files' (the relay's connections to the provider). A cell has
 * one of each at most; both count toward the client's cap of cloud minutes per run.
 */
export const DEVICE_SESSION_PARTS = ['pages', 'specs'] as const;
export type DeviceSessionPart = (typeof DEVICE_SESSION_PARTS)[number];

/** What the runner asks the server to open for one device of a mobile UI test (AppiumEndpoint.sessionPerDevice). */
export interface DeviceSessionRequest {
  /** The device's place in the test's list (0-based): its session is let go by it. */
  index: number;
  label: string;
  /** The device's capabilities as the runner would send them (platform, device name, OS version, a device ARN). */
  capabilities: Record<string, unknown>;
  /** When the test's time is up (epoch ms): a device not ready by then is not opened. */
  deadline: number;
  /** A browser test's cloud cell: which of its sessions (unset: `pages`). */
  part?: DeviceSessionPart;
}

export interface RunContext {
  /** A fresh folder for this attempt; every artifact is written inside it. */
  runDir: string;
  signal: AbortSignal;
  chromiumPath: string;
  /** The wapiti executable the security scan starts; unset: DEFAULT_WAPITI_PATH. */
  wapitiPath?: string;
  /** The Firefox browser tests with `engines: ['firefox']` start; unset: DEFAULT_FIREFOX_PATH (Debian's firefox-esr). */
  firefoxPath?: string;
  /** WebKit for browser tests with `engines: ['webkit']` (decision 0079); unset: Debian's (lib/webkit.ts). */
  webkitDriverPath?: string;
  miniBrowserPath?: string;
  xvfbPath?: string;
  /** Parallel workers a browser runner may use. */
  workers: number;
  /**
   * The cores the attempt's weight holds in the queue (its kind's and its options', at most the whole capacity: a
   * test heavier than the machine runs alone). A browser test runs its parts side by side within them (issue 40);
   * unset: one.
   */
  cores?: number;
  log: (message: string, data?: Record<string, unknown>) => void;
  /** How the target guard resolves names and judges addresses; unset: the system's DNS and the private ranges. */
  network?: TargetGuardOptions;
  progress?: (p: { done: number; total: number; message?: string }) => void;
  /**
   * A device's session opened by the server (AppiumEndpoint.sessionPerDevice): its Appium URL, once the device is
   * ready. `closeDevice` lets it go (the server stops it; it also stops every one it opened when the attempt ends).
   */
  openDevice?: (request: DeviceSessionRequest) => Promise<{ url: string }>;
  closeDevice?: (index: number, part?: DeviceSessionPart) => Promise<void>;
  /** The logged-in session of this attempt (resolved once, before the runner starts): every request carries it. */
  login?: LoginSession;
  /** A load test run by several generators: which one this is, and when they all start (issue 12). */
  loadGenerator?: { index: number; count: number; startAtMs: number };
  /**
   * A visual test's baselines, given by the server: one PNG per shot, named `visualBaselineFile(key)`
   * (@fullstop/contracts). Unset, or a shot's file absent: that shot is new (docs/decisions/0080).
   */
  baselineDir?: string;
  /**
   * Benches only: a browser test's page checks start a browser a cell, as before issue 40, instead of one an engine
   * (bench/engine/browser-matrix.ts measures the two in one run). The server never sets it.
   */
  browserPerCell?: boolean;
  /**
   * Benches only: the Playwright workers of a browser test's spec files, instead of what its cells' networks let run
   * together on `workers` cores (lib/cell-weight.ts `specWorkersWithin`). The server never sets it.
   */
  specWorkers?: number;
  /**
   * Benches only: false gives a browser test's spec files and page checks a browser an engine each, as before
   * decision 0110, instead of the attempt's browser host's for both. The server never sets it.
   */
  browserHost?: boolean;
  /**
   * A browser test's fingerprints of the last passing run of the same suite version (`fingerprints.json`, decision
   * 0101), given by the server: the locators its call sites used that find nothing or too much now are healed.
   * Unset: nothing heals (fingerprints are still recorded). `false`: benches only, no fingerprint is recorded either.
   */
  healingFingerprints?: string | false;
}

export type ArtifactKind = 'html-report' | 'json' | 'junit' | 'trace' | 'screenshot' | 'log' | 'other';

export interface Artifact {
  /** Path relative to the run folder. */
  path: string;
  kind: ArtifactKind;
  contentType: string;
  label?: string;
  /** The path is a folder (e.g. Playwright's HTML report): zip it whole, serve its index.html. */
  directory?: boolean;
}

export type Risk = 'High' | 'Medium' | 'Low' | 'Informational';

/** A finding of a security scan or a mobile static analysis. */
export interface Finding {
  /** Stable id, e.g. a ZAP rule id ("10038", "40012"), "wapiti:weak-credentials" (no ZAP rule) or "mobile:debuggable". */
  ruleId: string;
  name: string;
  risk: Risk;
  url?: string;
  /** The parameter or cookie concerned, when there is one; part of a finding's identity with ruleId and url. */
  param?: string;
  evidence?: string;
  description?: string;
  solution?: string;
}

/** A single check or test case, for pass/fail kinds and JUnit output. */
export interface CaseResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  error?: string;
  /** Optional detail a runner may add; reports show it when present. */
  steps?: { title: string; durationMs: number; error?: string }[];
  /** The engine and device it ran on, `<engine>/<device>`, when its test runs on several (browser tests). */
  cell?: string;
  /** Screenshot and trace of the case, relative to the run folder. */
  screenshot?: string;
  trace?: string;
  /** The locators healed in its last attempt (browser tests, decision 0101). */
  healed?: CaseHeal[];
  /** What an api or security check expected and what came back, in words. */
  expected?: string;
  actual?: string;
}

/** The summary of a kind that reports a list of cases (browser, api, security-checks). */
export interface CasesSummary<K extends TestKind> {
  kind: K;
  cases: CaseResult[];
}

/**
 * Each kind's summary, by kind. Empty here: each runner folder's `facts.ts` adds its own
 * (`declare module '../../types.ts' { interface KindSummaries { load: { kind: 'load'; ... } } }`), so a program
 * that uses RunnerSummary must include those files. Nothing imports them by name, so apps/server and bench include
 * every `runners/<kind>/facts.ts` by a glob in their tsconfig; without them, RunnerSummary names each kind missing.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface KindSummaries {}

export type RunnerSummary = KindSummaries[TestKind];

export interface RunnerResult {
  status: 'passed' | 'failed' | 'error';
  totals: RunTotals;
  durationMs: number;
  summary: RunnerSummary;
  artifacts: Artifact[];
  /** Why the run errored (not a test failure: the runner could not run). */
  error?: string;
  /** Stable code of that error: `validation_error`, `target_policy`, `aborted`, or absent for a crash. */
  errorCode?: string;
}

/** The summary of one kind. */
export type SummaryOf<K extends TestKind> = RunnerSummary & { kind: K };

/** Whether a run that ended with an error code is tried again while attempts remain. */
export interface ErrorCodeFact {
  retried: boolean;
}

/**
 * What the server needs to know about a kind without loading its runner (browsers, Lighthouse): each runner
 * folder states them in its `facts.ts`, its runner carries them, and the server reads them from `kinds`.
 */
export interface KindFacts<K extends TestKind = TestKind> {
  kind: K;
  /** How a sentence names a run of the kind: "The security scan needs wapiti ...", "security scans cannot run". */
  title: string;
  /** The kind over its report and in the run report's table: "Security scan". */
  label: string;
  /** Seconds a run may take before it is stopped and ends as an error; a manifest's `timeoutSeconds` overrides it. */
  timeLimitSeconds: number;
  /** Seconds a run usually takes here: the order of a test that has never run (longest first). */
  typicalSeconds: number;
  /** The summary of a run that could not run. */
  emptySummary(): SummaryOf<K>;
  /** Every error code a run of this kind can end with. */
  errorCodes: Readonly<Record<string, ErrorCodeFact>>;
  /** The programs and packages a run of this kind may need (the readiness check lists each kind under them). */
  engines: readonly EngineName[];
  /** The ones a run with these (raw, manifest) options needs, when fewer than `engines`; unset: all of them. */
  enginesFor?: (options: Readonly<Record<string, unknown>>) => readonly EngineName[];
}

export interface Runner {
  kind: TestKind;
  facts: KindFacts;
  /** Throws a ValidationError naming the field when options are wrong. */
  validate(test: TestDefinition): void;
  run(test: TestDefinition, target: RunTarget, ctx: RunContext): Promise<RunnerResult>;
}
