/**
 * Sample reports of every kind, for the reporters' tests, the bench and looking at the pages. Not used at run time.
 * Each kind's is its folder's `sample.ts` (its `sample`), found by the folder like its `facts` (runners/kinds.ts).
 */
import { TEST_KINDS, type TestKind } from '../types.ts';
import { sampleReport } from './sample-report.ts';
import type { RunReport, RunSummaryReport } from './types.ts';

export const samples = Object.fromEntries(
  await Promise.all(TEST_KINDS.map(async (kind) => [kind, ((await import(`../runners/${kind}/sample.ts`)) as { sample: () => RunReport }).sample] as const)),
) as Record<TestKind, () => RunReport>;

/** Samples by their old names, for the tests and benches that import one by name; a new kind needs none. */
export const {
  accessibility: accessibilitySample,
  api: apiSample,
  browser: browserSample,
  lighthouse: lighthouseSample,
  load: loadSample,
  'mobile-static': mobileSample,
  'security-checks': securityChecksSample,
  'security-scan': securityScanSample,
} = samples;

/** A load test stopped by the target policy: a run that could not run. */
export function errorSample(): RunReport {
  return sampleReport({ kind: 'load', testName: 'Soak test', status: 'error', error: 'target policy: shop.acme.test resolves to a private address (10.0.0.4)\nrefused by the policy', totals: { totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 } });
}

/** A sample of every kind, in TEST_KINDS order, and one that could not run. */
export function allSamples(): RunReport[] {
  return [...TEST_KINDS.map((kind) => samples[kind]()), errorSample()];
}

export function runSample(): RunSummaryReport {
  return {
    clientName: 'Acme Shop',
    runId: '0b4d6c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e',
    trigger: 'portal',
    startedAt: '2026-11-23T10:40:00.000Z',
    finishedAt: '2026-11-23T10:44:12.000Z',
    target: 'https://shop.acme.test',
    tests: allSamples(),
  };
}
