import { loadInsight } from '@fullstop/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
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
});
