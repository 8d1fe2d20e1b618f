import { describe, expect, it } from 'vitest';
import { describeLiveTest, type LiveTest } from './live-status.ts';
import { countTests, runAcceptedText } from './tests-texts.ts';

const base: LiveTest = { runId: 'r1', runTestId: 'rt1', testName: 'Login', status: 'queued', progress: null, totals: null, error: null, finishedAt: null };

describe('tests page texts', () => {
  it('describes a test while it runs and after it ends', () => {
    expect(describeLiveTest(base)).toBe('Queued');
    expect(describeLiveTest({ ...base, status: 'running', progress: { done: 2, total: 5, message: 'checkout' } })).toBe('Running: 2 of 5 · checkout');
    expect(describeLiveTest({ ...base, status: 'passed', totals: { totalTests: 3, passedTests: 3, failedTests: 0, skippedTests: 0 } })).toBe(
      'Passed: 3 passed, 0 failed, 0 skipped',
    );
    expect(describeLiveTest({ ...base, status: 'error', error: 'Target unreachable' })).toBe('Could not run: Target unreachable');
    // A scan that ran but could not attack everything is not one that could not run.
    const why = 'The scan is incomplete: the exec module crashed (UnicodeDecodeError) on GET /crash.';
    expect(describeLiveTest({ ...base, status: 'error', error: why })).toBe(`Incomplete scan: ${why}`);
    expect(describeLiveTest({ ...base, status: 'cancelled' })).toBe('Cancelled');
  });

  it('shows the run id once, whether or not the server message names it', () => {
    expect(runAcceptedText({ message: 'All tests queued: 2 tests (run r1)', runId: 'r1' })).toBe('All tests queued: 2 tests (run r1)');
    expect(runAcceptedText({ message: 'Queued', runId: 'r2' })).toBe('Queued (run r2)');
  });

  it('counts the tests of every group', () => {
    expect(countTests({ A: ['a', 'b'], B: [], C: ['c'] })).toBe(3);
    expect(countTests({})).toBe(0);
  });
});
