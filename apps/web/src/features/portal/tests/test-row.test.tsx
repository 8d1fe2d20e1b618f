import type { TestLatestResult } from '@fullstop/contracts';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveTest } from './live-status.ts';
import { TestRow } from './test-row.tsx';

afterEach(cleanup);

const latest: TestLatestResult = {
  testName: 'Checkout',
  group: 'Frontend',
  kind: 'browser',
  status: 'passed',
  totals: { totalTests: 3, passedTests: 3, failedTests: 0, skippedTests: 0 },
  durationMs: 1234,
  finishedAt: '2026-11-23T10:42:00.000Z',
  runId: 'r1',
  runTestId: 'rt1',
  reportFormats: ['html', 'json'],
  error: null,
};
const running: LiveTest = {
  runId: 'r2',
  runTestId: 'rt2',
  testName: 'Checkout',
  status: 'running',
  progress: { done: 1, total: 3 },
  totals: null,
  error: null,
  finishedAt: null,
};

function row(props: Partial<Parameters<typeof TestRow>[0]> = {}) {
  const onRun = vi.fn();
  const onOpenReport = vi.fn();
  render(
    <ul>
      <TestRow testName="Checkout" live={undefined} latest={latest} resultsRead busy={false} onRun={onRun} onOpenReport={onOpenReport} {...props} />
    </ul>,
  );
  return { onRun, onOpenReport };
}

describe('a test on the Tests page', () => {
  it('shows its last result in words, when, how long, and opens its report', () => {
    const { onOpenReport } = row();
    expect(screen.getByTestId('live-status').textContent).toBe('Passed: 3 passed, 0 failed, 0 skipped');
    const meta = screen.getByTestId('last-result');
    expect(meta.querySelector('time')?.getAttribute('dateTime')).toBe(latest.finishedAt);
    expect(meta.textContent).toContain('took 1.2 s');
    expect(meta.textContent).not.toContain('Last result');
    fireEvent.click(screen.getByRole('button', { name: 'Report' }));
    expect(onOpenReport).toHaveBeenCalledOnce();
  });

  it('while a newer run goes, shows its progress and labels the result below as the previous one', () => {
    row({ live: running, busy: true });
    expect(screen.getByTestId('live-status').textContent).toBe('Running: 1 of 3');
    expect(screen.getByTestId('last-result').textContent).toContain('Last result: Passed');
    expect((screen.getByRole('button', { name: 'Run Test' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says when it never ran, and offers no report it does not have', () => {
    row({ latest: undefined });
    expect(screen.getByText('Not run yet')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull();
    cleanup();
    const { onRun } = row({ latest: { ...latest, status: 'error', totals: null, reportFormats: [] } });
    expect(screen.getByTestId('live-status').textContent).toBe('Could not run');
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Run Test' }));
    expect(onRun).toHaveBeenCalledOnce();
  });

  it('says why its last run could not run, from the latest results, without a live stream', () => {
    const why = 'The security scan needs wapiti, which is not installed at /usr/bin/wapiti. Install it with: apt-get install wapiti';
    row({ latest: { ...latest, kind: 'security-scan', status: 'error', totals: null, reportFormats: [], error: why } });
    expect(screen.getByTestId('live-status').textContent).toBe(`Could not run: ${why}`);
  });

  it('says a flaky test is flaky, with the reason as its tooltip', () => {
    row({ latest: { ...latest, flaky: { reason: 'Passed on retry (attempt 2 of 3) in run r1', source: 'detected', confirmed: false, since: latest.finishedAt! } } });
    const badge = screen.getByTestId('flaky-badge');
    expect(badge.textContent).toContain('Flaky');
    expect(badge.getAttribute('title')).toBe('Passed on retry (attempt 2 of 3) in run r1. Cleared after 10 passing runs in a row.');
    cleanup();
    row();
    expect(screen.queryByTestId('flaky-badge')).toBeNull();
  });

  it('shows a test in cells as a matrix of its cases, and where it fails in one line', () => {
    const cases = ['chromium/desktop', 'firefox/desktop', 'firefox/phone'].flatMap((cell) => [
      { name: 'home › loads', status: 'passed' as const, cell, error: null },
      { name: 'home › pays', status: cell.startsWith('firefox') ? ('failed' as const) : ('passed' as const), cell, error: cell.startsWith('firefox') ? 'no pay button' : null },
    ]);
    row({ latest: { ...latest, status: 'failed', cases } });
    expect(screen.getByText('Fails on Firefox only')).toBeTruthy();
    const matrix = screen.getByRole('region', { name: 'Engines and devices (3 cells)' });
    expect(within(matrix).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Case', 'Chromium · desktop', 'Firefox · desktop', 'Firefox · phone']);
    const pays = within(matrix).getByRole('row', { name: /home › pays/ });
    expect(within(pays).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Passed', 'FailedWhyno pay button', 'FailedWhyno pay button']);
    expect(within(pays).getAllByTitle('no pay button')).toHaveLength(2);
  });

  it('shows no matrix and no callout for a test without cells, as before', () => {
    row();
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByText(/fails on/i)).toBeNull();
  });
});
