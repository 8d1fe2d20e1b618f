import type { RunSummary } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import type { LiveTest, LiveTests } from './live-status.ts';
import { endedKey, followedRunAll, runAllProgress, runAllProgressText } from './run-progress.ts';

const test = (testName: string, runId: string, status: LiveTest['status']): LiveTest => ({
  runId,
  runTestId: `${runId}-${testName}`,
  testName,
  status,
  progress: null,
  totals: null,
  error: null,
  finishedAt: null,
});
const tests = (...list: LiveTest[]): LiveTests => Object.fromEntries(list.map((t) => [t.testName, t]));
const run = (runId: string, status: RunSummary['status'], scope = 'all'): RunSummary => ({
  runId,
  scope,
  status,
  totals: null,
  createdAt: '2026-11-23T10:00:00Z',
  finishedAt: null,
});

describe('run of all progress', () => {
  it('counts the tests of the run this page started that ended, out of the whole suite', () => {
    const live = tests(test('a', 'r1', 'passed'), test('b', 'r1', 'running'), test('c', 'r1', 'error'), test('d', 'r0', 'passed'));
    expect(runAllProgress('r1', run('r0', 'passed'), live, 4)).toEqual({ runId: 'r1', done: 2, total: 4 });
    expect(runAllProgressText({ runId: 'r1', done: 2, total: 4 })).toBe('Running 2 of 4…');
  });

  it('shows nothing once every test ended or the server says the run ended', () => {
    const live = tests(test('a', 'r1', 'passed'), test('b', 'r1', 'failed'));
    expect(runAllProgress('r1', undefined, live, 2)).toBeNull();
    expect(runAllProgress('r1', run('r1', 'cancelled'), tests(test('a', 'r1', 'queued')), 2)).toBeNull();
  });

  it('picks up a run of all started elsewhere, but not a single test', () => {
    const live = tests(test('a', 'r2', 'queued'), test('b', 'r2', 'queued'));
    const going = (newest: RunSummary | undefined) => runAllProgress(followedRunAll(null, newest), newest, live, 2);
    expect(going(run('r2', 'running'))).toEqual({ runId: 'r2', done: 0, total: 2 });
    expect(going(run('r3', 'running', 'a'))).toBeNull();
    expect(going(run('r2', 'passed'))).toBeNull();
    expect(going(undefined)).toBeNull();
    expect(followedRunAll('r1', run('r2', 'running'))).toBe('r1');
  });

  it('ends when the run as read ended, though a later run of one of its tests hides that test’s end from the live events', () => {
    // r1 ran a, b and c; then someone ran c alone (r2), which is now c's newest event, and r2 is the newest run.
    const live = tests(test('a', 'r1', 'passed'), test('b', 'r1', 'passed'), test('c', 'r2', 'cancelled'));
    const newest = run('r2', 'cancelled', 'c');
    expect(runAllProgress('r1', newest, live, 3)).toEqual({ runId: 'r1', done: 2, total: 3 });
    const read = (status: RunSummary['status'], c: RunSummary['status']) => ({ runId: 'r1', status, tests: [{ status: 'passed' as const }, { status: 'passed' as const }, { status: c }] });
    expect(runAllProgress('r1', newest, live, 3, read('running', 'passed'))).toBeNull();
    expect(runAllProgress('r1', newest, live, 3, read('passed', 'passed'))).toBeNull();
    // Read while c still ran: two done, as the live events say; another run's reading counts for nothing.
    expect(runAllProgress('r1', newest, live, 3, read('running', 'running'))).toEqual({ runId: 'r1', done: 2, total: 3 });
    expect(runAllProgress('r1', newest, live, 3, { ...read('passed', 'passed'), runId: 'r0' })).toEqual({ runId: 'r1', done: 2, total: 3 });
  });

  it('changes its ended key only when a test ends', () => {
    const before = endedKey(tests(test('a', 'r1', 'passed'), test('b', 'r2', 'running')));
    expect(endedKey(tests(test('a', 'r1', 'passed'), test('b', 'r2', 'running')))).toBe(before);
    expect(endedKey(tests(test('a', 'r1', 'passed'), test('b', 'r2', 'failed')))).not.toBe(before);
  });
});
