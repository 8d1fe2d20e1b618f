/**
 * What the mobile UI runner (index.ts) and its spec process (spec-child.ts) exchange, through files in the run
 * folder: the config in, the session id as soon as there is one (so the runner can end a session its child left
 * behind), the result out. No import: the child loads this file and nothing else of the engine.
 */

/** The variables the child reads the Appium endpoint's credentials from: never written to the run folder. */
export const APPIUM_USER_VAR = 'FULLSTOP_APPIUM_USER';
export const APPIUM_KEY_VAR = 'FULLSTOP_APPIUM_KEY';

export interface SpecChildConfig {
  /** The Appium endpoint, e.g. `http://127.0.0.1:4723/` or a provider's `https://hub.example/wd/hub`. */
  endpoint: string;
  /** The endpoint's host and the only addresses the child may connect it to (judged by the target policy). */
  pinned: { hostname: string; addresses: { address: string; family: number }[] };
  /** W3C capabilities, vendor-prefixed, the app's path included. */
  capabilities: Record<string, unknown>;
  /** Absolute spec files, in order. */
  specFiles: string[];
  /** Mocha's timeout of each `it` (a step) and each hook. */
  stepTimeoutMs: number;
  /** When the test's time is up (epoch ms): the specs stop, the session ends, the result is written. */
  deadline: number;
  /** How long `$()` waits for an element, and each WebDriver request may take. */
  waitforTimeoutMs: number;
  commandTimeoutMs: number;
  /** Absolute folder for the screenshots and page sources; `relDir` is the same relative to the run folder. */
  outDir: string;
  relDir: string;
  sessionFile: string;
  resultFile: string;
}

/** Written to `sessionFile` when the session starts, and again with `ended` when the child ended it. */
export interface SessionNote {
  sessionId: string;
  ended?: boolean;
}

export interface ChildStep {
  title: string;
  durationMs: number;
  error?: string;
}

export interface ChildCase {
  /** `spec.ts › describe › it`. */
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  error?: string;
  /** The step timed out (mocha's timeout of the `it`). */
  timedOut?: boolean;
  steps: ChildStep[];
  /** Relative to the run folder. */
  screenshot?: string;
  pageSource?: string;
}

export interface ChildResult {
  cases: ChildCase[];
  /** The session's capabilities as the server answered them (device, OS). */
  sessionCapabilities: Record<string, unknown>;
  /** From the start of the session request to the first screen's page source. */
  sessionStartMs: number | null;
  coldStartMs: number | null;
  /** Memory and CPU as the driver reports them; null with why when it does not. */
  performance: { memoryKb: number | null; cpuPercent: number | null; note: string | null };
  /** The spec files could not be loaded, or the session could not start. */
  error?: string;
  sessionEnded: boolean;
  /** The test's time ran out before the specs were done. */
  timedOut?: boolean;
}
