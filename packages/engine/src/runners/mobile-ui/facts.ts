import { defineKind } from '../../lib/kind-facts.ts';
import type { CaseResult } from '../../types.ts';
import type { MobileUiErrorCode } from './errors.ts';

/** One device of a mobile UI test, as its report header shows it. */
export interface MobileDevice {
  /** The device's name in the report (options.ts deviceLabel); a case's `cell` when the test has several. */
  label: string;
  platformName: string | null;
  deviceName: string | null;
  platformVersion: string | null;
  /** The app's version, read from the uploaded build; null when it could not be read. */
  appVersion: string | null;
  /** From the session request to the app's first screen (its first page source). */
  coldStartMs: number | null;
  /** Memory (PSS) and CPU of the app, where the driver reports them; `performanceNote` says when it does not. */
  memoryKb: number | null;
  cpuPercent: number | null;
  performanceNote: string | null;
  /** Why the device did not run its specs (the session did not start, a spec file would not load). */
  error?: string;
  /** The Appium session's id as the endpoint answered it (a cloud's session, its video and logs are found by it). */
  sessionId?: string | null;
  /** The provider's pages of the session (video, logs), added by the server after the run where the provider gives them. */
  providerLinks?: ProviderLink[];
  /** Why there are no provider links when there could be (the provider answered nothing useful), in one line. */
  providerNote?: string;
}

/** A provider's page of a device's session: "Video", "Appium log", "Device log", "Session on BrowserStack". */
export interface ProviderLink {
  label: string;
  url: string;
}

/** The page source at a failed step, inlined in the report (its first part) and kept whole as an artifact. */
export interface PageSourceAtFailure {
  case: string;
  path: string;
  excerpt: string;
  truncated: boolean;
}

export interface MobileUiSummary {
  kind: 'mobile-ui';
  cases: CaseResult[];
  devices: MobileDevice[];
  pageSources: PageSourceAtFailure[];
}

// Light on this machine: a Node process per device (WebdriverIO and Mocha, ~0.6 CPU-s) that waits on a remote
// Appium server; the device's own work is the provider's (docs/decisions/0084).
export const facts = defineKind(
  'mobile-ui',
  {
    title: 'mobile UI test',
    label: 'Mobile UI tests',
    // testTimeoutSeconds (at most 1800) and the time to end the session after it.
    timeLimitSeconds: 1_900,
    typicalSeconds: 60,
    weight: 0.25,
    engines: ['webdriverio', 'appium'],
    // A local Appium is for a device lab, an emulator host and CI: a run goes to its provider's endpoint.
    enginesFor: () => ['webdriverio'],
  },
  () => ({ kind: 'mobile-ui', cases: [], devices: [], pageSources: [] }),
  {
    no_app: { retried: false },
    no_appium_endpoint: { retried: false },
    session_not_started: { retried: true },
  } satisfies Record<MobileUiErrorCode, { retried: boolean }>,
);

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    'mobile-ui': MobileUiSummary;
  }
}
