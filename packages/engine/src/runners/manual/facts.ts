import { defineKind } from '../../lib/kind-facts.ts';
import type { CaseResult } from '../../types.ts';

/** A tester's verdict on one step: `blocked` when the step could not be walked (a precondition failed, the site was down). */
export const MANUAL_STEP_VERDICTS = ['passed', 'failed', 'blocked'] as const;
export type ManualStepVerdict = (typeof MANUAL_STEP_VERDICTS)[number];

/** A file a tester uploaded for a step: a screenshot or a short screen recording, relative to the attempt's folder. */
export interface ManualEvidence {
  path: string;
  contentType: string;
  /** The file's name as the tester uploaded it. */
  name: string;
}

/** One step as the case wrote it and as the tester found it; no verdict: the tester did not reach it. */
export interface ManualStepResult {
  action: string;
  expected: string;
  wcag?: string[];
  verdict: ManualStepVerdict | null;
  note: string | null;
  evidence: ManualEvidence[];
}

/** One execution: the case on one of its platforms, by one tester; or why nobody executed it. */
export interface ManualExecution {
  /** The platform the case asked for, in words ("iPhone 15 · Safari · iOS 18"). */
  platform: string;
  /** What the tester really used, in words; null when nobody executed it. */
  used: string | null;
  tester: string | null;
  /** When the tester claimed it and submitted it (ISO). */
  startedAt: string | null;
  submittedAt: string | null;
  /** `not-run`: nobody executed it by its due time (`notRunReason` says so). */
  verdict: 'passed' | 'failed' | 'blocked' | 'not-run';
  notRunReason?: string;
  steps: ManualStepResult[];
}

export interface ManualSummary {
  kind: 'manual';
  goal: string;
  preconditions: string[];
  testData: Record<string, string>;
  /** One case per execution (JUnit's testcases, the totals): the failed step's text in its error. */
  cases: CaseResult[];
  executions: ManualExecution[];
  /** The WCAG 2.2 success criteria its steps check, in order (an accessibility audit's coverage). */
  wcag: string[];
}

// A manual case weighs nothing on the machine: a tester executes it, no runner does (the server never queues a job for it).
export const facts = defineKind(
  'manual',
  {
    title: 'manual test case',
    label: 'Manual test cases',
    // A tester's time, not a runner's: the due time (the client's turnaround) bounds it, not this.
    timeLimitSeconds: 60,
    typicalSeconds: 900,
    weight: 0,
  },
  () => ({ kind: 'manual', goal: '', preconditions: [], testData: {}, cases: [], executions: [], wcag: [] }),
  { executed_by_a_tester: { retried: false }, not_run: { retried: false } },
);

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    manual: ManualSummary;
  }
}
