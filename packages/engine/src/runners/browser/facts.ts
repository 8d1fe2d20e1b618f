import { casesKind } from '../../lib/kind-facts.ts';
import type { CasesSummary } from '../../types.ts';
import type { ProviderLink } from '../mobile-ui/facts.ts';
import { enginesIn } from './matrix.ts';

/** Whether a test's raw options leave a local device (its default, desktop, or a name beside cloud devices). */
const localDevicesNamed = (options: Readonly<Record<string, unknown>>) => !Array.isArray(options.devices) || options.devices.some((d) => typeof d === 'string');

/**
 * One cloud cell of a browser test (decision 0100), as its report shows it: the device and browser, the provider,
 * what ran there and what a cloud cell cannot run, the device minutes it used, and the provider's session pages
 * (added by the server after the run, as for mobile UI tests).
 */
export interface CloudCellSummary {
  /** The cell's name, as its cases carry it: `cloud/safari@iPhone 15 (iOS 18)`. */
  cell: string;
  /** "Safari on iPhone 15 (iOS 18)". */
  label: string;
  /** "BrowserStack", "Sauce Labs", "AWS Device Farm". */
  provider: string;
  device: string;
  os: string | null;
  browser: string;
  /** The browser's version and platform as the provider's session answered them, when it did. */
  browserVersion: string | null;
  platformName: string | null;
  /** The WebDriver session's id on the provider (its video and logs are found by it); null when none started. */
  sessionId: string | null;
  /** Device minutes the cell used, from asking for its session to its end, to a tenth, rounded up; null when none started. */
  minutes: number | null;
  /** What ran: "page checks only (page loads, …)"; null when the cell did not run. */
  ran: string | null;
  /** What a cloud cell cannot run, in words. */
  cannot: string;
  /**
   * The cell's spec files (decision 0106), where its provider runs Playwright: the provider's build their sessions
   * were named in (the server finds them by it), how many connections the provider took, their time, and its last
   * refusal (without the key); `notStarted`: why the server gave the cell no spec session (the client's cap of cloud
   * minutes per run), in the page checks' words: its spec files did not run.
   */
  specFiles?: { build: string; connections: number; ms: number; refused?: string; notStarted?: string };
  /** The ids of the spec files' sessions on the provider, as its API listed them after the run. */
  specSessionIds?: string[];
  /**
   * What the provider billed for the cell's sessions, in minutes, as its API answered after the run; null when it did
   * not answer in time (or answered without it). Absent before the server asked.
   */
  billedMinutes?: number | null;
  /** Why the cell did not run (no session, the client's cap of cloud minutes), in one line. */
  note?: string;
  providerLinks?: ProviderLink[];
  /** Why there are no provider links when there could be, in one line. */
  providerNote?: string;
}

// Heavier: Playwright's runner and the policy proxy, and per Playwright worker (ENGINE_BROWSER_WORKERS) a worker
// process and its Chromium: one core a test with one worker (the demo's browser tests alone kept 0.9-1.4 busy).
export const facts = casesKind('browser', {
  title: 'browser test',
  label: 'Browser tests',
  timeLimitSeconds: 600,
  typicalSeconds: 15,
  weight: 0.25,
  weightPerWorker: 0.75,
  engines: ['chromium', 'firefox', 'webkit', 'playwright', 'axe'],
  // Firefox and WebKit only for a test whose `engines` name them; Chromium only for one whose do; axe for page checks.
  // A test whose devices are all on the client's device cloud starts no local browser (decision 0100).
  enginesFor: (options) => [...(localDevicesNamed(options) ? enginesIn(options) : []), 'playwright', ...(Array.isArray(options.pages) ? (['axe'] as const) : [])],
});

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    browser: CasesSummary<'browser'> & { cloudCells?: CloudCellSummary[] };
  }
}
