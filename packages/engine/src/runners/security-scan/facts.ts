import { defineKind } from '../../lib/kind-facts.ts';
import type { Finding } from '../../types.ts';

/** How far one wapiti attack module got. */
export interface ScanModuleCoverage {
  /** wapiti's module name, e.g. `xss`. */
  name: string;
  /**
   * `finished`: it went through every URL it was given (some may have been left out after a crash, see errors);
   * `crashed`: it crashed and was not run again; `time-limit`: it stopped at its share of the scan time;
   * `not-run`: it never started.
   */
  status: 'finished' | 'crashed' | 'time-limit' | 'not-run';
  /** wapiti processes it ran in (1, or more when it was run again after a crash). */
  runs: number;
  /** URLs and forms with parameters it attacked to the end. */
  attacked: number;
  /** Seconds it ran, over all its runs. */
  seconds?: number;
  /** `finished` after a crash: the URLs it was run again without (it did not attack those). */
  leftOut?: number;
}

/** One thing that went wrong in a module. */
export interface ScanModuleError {
  module: string;
  /** What wapiti said, e.g. "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 0". */
  error: string;
  /** The request it was attacking when it crashed, when known. */
  method?: string;
  url?: string;
  params?: string[];
  /** The module was run again with that URL left out. */
  retried: boolean;
}

/** One JSON call the browser crawl saw a page make, and how far sqlmap got attacking it. */
export interface ScanCallCoverage {
  method: string;
  url: string;
  /** The body's top-level keys sqlmap attacked. */
  params: string[];
  /**
   * `finished`: sqlmap tested every parameter to the end; `time-limit`: it stopped at its share of the scan time;
   * `failed`: it stopped on an error (`error`); `not-run`: no time was left, or sqlmap is not installed.
   */
  status: 'finished' | 'time-limit' | 'failed' | 'not-run';
  seconds?: number;
  error?: string;
}

/** A page or response the passive checks judged, and the checks that applied to it. */
export interface PassivePage {
  url: string;
  status: number;
  contentType: string;
  /** The groups of checks that read it: "page headers" (HTML), "response headers", "cookies", "errors". */
  checks: string[];
  findings: number;
}

/** What the active scan covered: the modules, the URLs and parameters each attacked, and what went wrong. */
export interface ScanCoverage {
  complete: boolean;
  /** What was not attacked, in words (starts lower case), when the scan is incomplete: "sql did not finish on GET /go (url)". */
  incomplete?: string;
  /** The modules counted: "7 of 7 modules finished", "6 of 7 modules finished; sql stopped at GET /go". */
  progress?: string;
  /** How the scan's time went: its budget (maxScanSeconds), the crawl, and the whole (each module's is in `modules`). */
  time?: { budgetSeconds: number; crawlSeconds: number; totalSeconds: number };
  modules: ScanModuleCoverage[];
  /**
   * The crawl stopped at the scan's time limit: the modules attacked what it had found by then. Shown, but not
   * incomplete: the limit is the test's own setting (maxScanSeconds), like maxPages.
   */
  crawlStoppedAtTimeLimit?: boolean;
  /** Every URL and form with parameters wapiti found, and the modules that attacked it to the end. */
  targets: { method: string; url: string; params: string[]; modules: string[] }[];
  errors: ScanModuleError[];
  /** The JSON calls the browser crawl saw the pages make, each attacked by sqlmap (absent before issue 38). */
  calls?: ScanCallCoverage[];
  /** What was attacked to the end by at least one module: URLs and forms with parameters (wapiti), JSON calls (sqlmap). */
  attacked?: { targets: number; calls: number };
  /**
   * Set when nothing was attacked (no URL with parameters, form or JSON call was found): why, in words ("the scanner
   * found no URL with parameters, form or JSON call to attack on the 2 pages crawled"). Such a scan is never passed.
   */
  nothingToAttack?: string;
}

/**
 * `scan_incomplete`: a module crashed, ran out of time or never started, so part of the site was not attacked.
 * Not retried: the crash comes from the site's answer to a payload and repeats; the run already ran the module
 * again around the request that broke it. `scan_nothing_to_attack`: it found nothing to attack; a retry finds the same.
 */
export const facts = defineKind(
  'security-scan',
  // wapiti runs the active attacks only: a scan with `active: false` (passive checks only) needs none. Half a core: a
  // scan is mostly waiting, on the browser crawl's quiet windows, then on the site's answers to wapiti and sqlmap. The
  // demo's kept 0.61 of a core busy alone, the site's answers (our own server) included, and its own processes 0.44
  // (decision 0112).
  { title: 'security scan', label: 'Security scan', timeLimitSeconds: 900, typicalSeconds: 10, weight: 0.5, engines: ['wapiti'], enginesFor: (options) => (options.active === false ? [] : ['wapiti']) },
  () => ({ kind: 'security-scan', findings: [] }),
  { scan_incomplete: { retried: false }, scan_nothing_to_attack: { retried: false } },
);

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    'security-scan': { kind: 'security-scan'; findings: Finding[]; coverage?: ScanCoverage; passive?: PassivePage[] };
  }
}
