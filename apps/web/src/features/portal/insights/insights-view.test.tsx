import { loadInsight, type TestLatestResult } from '@fullstop/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/format-date.ts';
import { InsightsView } from './insights-view.tsx';

beforeAll(() => {
  // jsdom has no layout: charts get a fixed size, and no media query matches (the phone carousel).
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
afterEach(cleanup);

const titles = () => screen.queryAllByRole('heading', { level: 2 }).map((h) => h.textContent);

describe('the insights cards', () => {
  it('says so when there is nothing to show', () => {
    render(<InsightsView data={undefined} />);
    expect(screen.getByText('No insights available.')).toBeTruthy();
    cleanup();
    render(<InsightsView data={{}} />);
    expect(screen.getByText('No insights available.')).toBeTruthy();
  });

  it('shows only the cards with data, in the spec order', () => {
    render(
      <InsightsView
        data={{
          'security-report': { totalTests: 4, passedTests: 3, failedTests: 1, skippedTests: 0, duration: 2.5 },
          zap: { High: 0, Medium: 1, Low: 2, Informational: 3, 'False Positives': 0 },
        }}
      />,
    );
    expect(titles()).toEqual(['Zap Insights', 'Security Test Insights']);
    expect(screen.getByText('Test Duration: 2.5 seconds')).toBeTruthy();
    expect(screen.queryByText('No insights available.')).toBeNull();
  });

  it('summarises a load run without NaN when no request was made', () => {
    render(<InsightsView data={{ load: loadInsight.parse({}) }} />);
    expect(titles()).toEqual(['Load Insights']);
    expect(screen.getByText('Success Rate').nextElementSibling?.textContent).toBe('—');
    expect(screen.getByText('Custom Metric Threshold Met').nextElementSibling?.textContent).toBe('No');
    expect(document.body.textContent).not.toContain('NaN');
  });

  it('says "No alerts found" for a scan without alerts, instead of empty axes', () => {
    render(<InsightsView data={{ zap: { High: 0, Medium: 0, Low: 0, Informational: 0, 'False Positives': 0 } }} />);
    expect(screen.getByText('No alerts found')).toBeTruthy();
    expect(document.querySelector('.recharts-responsive-container')).toBeNull();
  });

  it('names the run each card comes from and draws its trend, when the trends arrived', () => {
    const at = '2026-11-23T10:42:00.000Z';
    render(
      <InsightsView
        data={{ 'frontend-report': { totalTests: 4, passedTests: 3, failedTests: 1, skippedTests: 0, duration: 2 } }}
        trends={{ 'frontend-report': { runAt: at, points: [{ runId: 'r1', at, passRate: 75 }] } }}
      />,
    );
    expect(screen.getByText(/^From the run of /).textContent).toBe(`From the run of ${formatDate(at)}`);
    expect(screen.getByRole('figure', { name: 'Frontend Test Insights trend: pass rate' })).toBeTruthy();
  });

  it('leaves out the date and trend when there are none', () => {
    render(<InsightsView data={{ 'frontend-report': { totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0, duration: 1 } }} />);
    expect(screen.queryByText(/^From the run of /)).toBeNull();
    expect(screen.queryByRole('figure', { name: /trend/ })).toBeNull();
  });

  describe('a card whose latest tests could not run', () => {
    const why = 'The security scan needs wapiti, which is not installed at /usr/bin/wapiti. Install it with: apt-get install wapiti';
    const finishedAt = '2026-11-23T10:42:00.000Z';
    const errored: TestLatestResult = {
      testName: 'zap scan',
      group: 'Security',
      kind: 'security-scan',
      status: 'error',
      totals: null,
      error: why,
      durationMs: 12,
      finishedAt,
      runId: 'r2',
      runTestId: 'rt2',
      reportFormats: [],
    };

    it('shows the Zap card saying the scan could not run and why, when no scan ever ran', () => {
      render(<InsightsView data={{}} latest={[errored]} />);
      expect(titles()).toEqual(['Zap Insights']);
      const notice = screen.getByTestId('not-run-zap');
      expect(notice.textContent).toBe(`The security scan “zap scan” could not run on ${formatDate(finishedAt)}.${why}There are no figures to show until it runs.`);
      expect(screen.queryByText('No insights available.')).toBeNull();
      expect(screen.queryByText('No alerts found')).toBeNull();
    });

    it('keeps the figures of the last scan that ran below, saying they are older', () => {
      render(<InsightsView data={{ zap: { High: 1, Medium: 0, Low: 0, Informational: 0, 'False Positives': 0 } }} latest={[errored]} />);
      expect(screen.getByTestId('not-run-zap').textContent).toContain('The figures below are from the last scan that ran.');
      expect(screen.getByRole('list', { name: 'Alerts by risk' }).textContent).toContain('High1');
    });

    it('shows an incomplete scan\'s counts marked incomplete, not as a scan that could not run', () => {
      const incomplete = 'sql did not finish on GET /go (url)';
      const scan: TestLatestResult = { ...errored, error: `The scan is incomplete: ${incomplete}. 6 of 7 modules finished; sql stopped at GET /go.` };
      render(<InsightsView data={{ zap: { High: 4, Medium: 1, Low: 0, Informational: 0, 'False Positives': 0, incomplete } }} latest={[scan]} />);
      expect(screen.queryByTestId('not-run-zap')).toBeNull();
      expect(screen.getByTestId('zap-incomplete').textContent).toBe(`Incomplete scan: ${incomplete}. The counts are those of what it attacked.`);
      expect(screen.getByRole('list', { name: 'Alerts by risk' }).textContent).toContain('High4');
    });

    it('shows a scan that had nothing to attack as such, never as a green "No alerts found"', () => {
      const why = 'the scanner found no URL with parameters, form or JSON call to attack on the 2 pages crawled';
      const scan: TestLatestResult = { ...errored, error: `The scan had nothing to attack: ${why}.` };
      render(<InsightsView data={{ zap: { High: 0, Medium: 0, Low: 0, Informational: 0, 'False Positives': 0, nothingToAttack: why } }} latest={[scan]} />);
      expect(screen.queryByTestId('not-run-zap')).toBeNull();
      expect(screen.getByTestId('zap-nothing-to-attack').textContent).toBe(`Nothing to attack: ${why}. The counts are those of the passive checks alone.`);
      expect(screen.queryByText('No alerts found')).toBeNull();
      expect(screen.getByText('No alerts, and nothing attacked')).toBeTruthy();
    });

    it('says nothing of tests of other cards, nor of tests that ran', () => {
      const passed: TestLatestResult = { ...errored, testName: 'checkout', kind: 'browser', status: 'passed', error: null, totals: { totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0 } };
      const loadErrored: TestLatestResult = { ...errored, testName: 'home load', kind: 'load', error: 'the site did not answer' };
      render(<InsightsView data={{ 'frontend-report': { totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0, duration: 1 } }} latest={[passed, loadErrored]} />);
      expect(titles()).toEqual(['Load Insights', 'Frontend Test Insights']);
      expect(screen.getByTestId('not-run-load').textContent).toContain('The load test “home load” could not run');
      expect(screen.queryByTestId('not-run-frontend-report')).toBeNull();
      expect(screen.queryByTestId('not-run-zap')).toBeNull();
    });
  });
});
