import type { TestLatestResult } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { alertsByRisk, failingTests, runDetailPath, runTotalsText, runVerdict } from './home-summary.ts';

const tests = (...statuses: TestLatestResult['status'][]) => statuses.map((status) => ({ status }));

describe('dashboard home summary', () => {
  it('says a run’s verdict in words', () => {
    expect(runVerdict('passed', tests('passed', 'passed'))).toBe('Passed');
    expect(runVerdict('failed', tests('passed', 'failed', 'failed', 'failed'))).toBe('3 failed');
    expect(runVerdict('error', tests('failed', 'error', 'passed'))).toBe('1 failed, 1 could not run');
    expect(runVerdict('error', tests('error', 'error'))).toBe('Could not run');
    expect(runVerdict('error', tests('error', 'passed'))).toBe('1 could not run');
    expect(runVerdict('running', tests('passed', 'running'))).toBe('Running');
    expect(runVerdict('cancelled', tests('passed', 'cancelled'))).toBe('Cancelled');
  });

  it('counts tests, not checks: passed of all once ended, done of all while it goes', () => {
    expect(runTotalsText('failed', tests(...Array<'passed'>(24).fill('passed'), 'failed', 'failed', 'error', 'failed'))).toBe('24 of 28 passed');
    expect(runTotalsText('running', tests('passed', 'failed', 'running', 'queued'))).toBe('2 of 4 done');
  });

  it('lists failing tests and alerts by risk', () => {
    const latest = [
      { testName: 'a', status: 'passed' },
      { testName: 'b', status: 'failed' },
      { testName: 'c', status: 'error' },
    ] as TestLatestResult[];
    expect(failingTests(latest).map((t) => t.testName)).toEqual(['b', 'c']);
    expect(alertsByRisk(undefined)).toBeNull();
    expect(alertsByRisk({ High: 1, Medium: 0, Low: 3, Informational: 2, 'False Positives': 5 })).toEqual([
      { risk: 'High', count: 1 },
      { risk: 'Medium', count: 0 },
      { risk: 'Low', count: 3 },
      { risk: 'Informational', count: 2 },
    ]);
  });

  it('links a run to its detail page', () => {
    expect(runDetailPath('a b')).toBe('/dashboard/history/a%20b');
  });
});
