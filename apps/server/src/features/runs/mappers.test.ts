import { SCAN_INCOMPLETE_ERROR } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { runMessageOf } from './mappers.ts';
import type { RunTestRow } from './run-repository.ts';

type Status = RunTestRow['status'];
const test = (status: Status, error: string | null = null) => ({ status, error }) as RunTestRow;
const run = (scope: string, status: Status, tests: RunTestRow[], totals = { totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 }) =>
  runMessageOf({ id: 'r1', scope, status, totals, tests });
const seven = Array.from({ length: 7 }, () => test('passed'));

describe('a run’s message counts its tests, never calling a run with passing tests all failed', () => {
  it('says how many of the tests failed and could not run', () => {
    expect(run('all', 'failed', [...seven, test('failed')], { totalTests: 43, passedTests: 42, failedTests: 1, skippedTests: 0 })).toBe('All tests: 1 of 8 tests failed');
    expect(run('all', 'error', [...seven.slice(1), test('failed'), test('error', 'target down')])).toBe('All tests: 1 of 8 tests failed, 1 could not run');
    expect(run('all', 'error', [test('error'), test('error')])).toBe('All tests: 2 of 2 tests could not run');
    expect(run('group:Checkout', 'failed', [test('passed'), test('failed')])).toBe('Group Checkout: 1 of 2 tests failed');
  });

  it('tells an incomplete scan and a cancelled test from one that could not run', () => {
    expect(run('all', 'error', [test('passed'), test('error', `${SCAN_INCOMPLETE_ERROR}: xss crashed`), test('error', 'no wapiti')])).toBe(
      'All tests: 1 of 3 tests had an incomplete scan, 1 could not run',
    );
    expect(run('all', 'cancelled', [test('passed'), test('cancelled'), test('cancelled')])).toBe('All tests: 2 of 3 tests cancelled');
  });

  it('counts tests and checks of a run that passed', () => {
    expect(run('all', 'passed', seven, { totalTests: 40, passedTests: 38, failedTests: 0, skippedTests: 2 })).toBe('All tests passed: 7 tests, 38 of 40 checks passed');
    expect(run('all', 'passed', [test('passed')], { totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0 })).toBe('All tests passed: 1 test, 1 of 1 check passed');
  });

  it('gives a single test’s checks when it failed and its reason when it could not run', () => {
    expect(run('Health check', 'passed', [test('passed')], { totalTests: 2, passedTests: 2, failedTests: 0, skippedTests: 0 })).toBe('Test Health check passed: 2 of 2 checks passed');
    expect(run('Health check', 'failed', [test('failed')], { totalTests: 2, passedTests: 1, failedTests: 1, skippedTests: 0 })).toBe('Test Health check failed: 1 of 2 checks failed');
    expect(run('Scan', 'error', [test('error', 'wapiti is not installed\nstack')])).toBe('Test Scan could not run: wapiti is not installed');
  });

  it('says a run still going is running', () => {
    expect(run('all', 'running', [test('passed'), test('running')])).toBe('All tests: still running (run r1)');
  });
});
