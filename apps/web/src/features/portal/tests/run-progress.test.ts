import type { RunSummary } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import type { LiveTest, LiveTests } from './live-status.ts';
import { endedKey, runAllProgress, runAllProgressText } from './run-progress.ts';

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
    expect(runAllProgress(null, run('r2', 'running'), live, 2)).toEqual({ runId: 'r2', done: 0, total: 2 });
    expect(runAllProgress(null, run('r3', 'running', 'a'), live, 2)).toBeNull();
    expect(runAllProgress(null, run('r2', 'passed'), live, 2)).toBeNull();
    expect(runAllProgress(null, undefined, live, 2)).toBeNull();
  });

  it('changes its ended key only when a test ends', () => {
    const before = endedKey(tests(test('a', 'r1', 'passed'), test('b', 'r2', 'running')));
    expect(endedKey(tests(test('a', 'r1', 'passed'), test('b', 'r2', 'running')))).toBe(before);
    expect(endedKey(tests(test('a', 'r1', 'passed'), test('b', 'r2', 'failed')))).not.toBe(before);
  });
});
