import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manualRunText, type ManualCase } from './manual-case.tsx';
import { TestRow } from './test-row.tsx';

afterEach(cleanup);

const coupon: ManualCase = {
  testName: 'Checkout with a coupon',
  group: 'Shop',
  goal: 'A valid coupon lowers the basket total before payment.',
  preconditions: ['A signed-in customer with an empty basket'],
  steps: [
    { action: 'Apply the coupon SAVE10.', expected: 'The total drops to 224.10 €.', wcag: [] },
    { action: 'Tab from the coupon field to Pay now.', expected: 'Focus stays visible.', wcag: ['2.4.7', '2.4.11'] },
  ],
  platforms: ['iPhone 15 · Safari · iOS 18'],
  estimateMinutes: 20,
};

function row(manualCase: ManualCase | undefined) {
  render(
    <ul>
      <TestRow testName={coupon.testName} live={undefined} latest={undefined} resultsRead busy={false} onRun={vi.fn()} onOpenReport={vi.fn()} manualCase={manualCase} />
    </ul>,
  );
}

describe('a manual test case on the Tests page (issue 41)', () => {
  it('is tagged Manual, with its steps folded under a button', () => {
    row(coupon);
    expect(screen.getByText('Manual')).toBeTruthy();
    const toggle = screen.getByRole('button', { name: 'Steps of Checkout with a coupon (2)' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)!.hidden).toBe(true);
    expect(screen.queryAllByRole('listitem')).toHaveLength(1); // the row; its steps are not shown yet
  });

  it('unfolds into its goal, preconditions and numbered steps, with the WCAG criteria a step checks', () => {
    row(coupon);
    const toggle = screen.getByRole('button', { name: /^Steps/ });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const body = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(body.hidden).toBe(false);
    expect(within(body).getByText(coupon.goal)).toBeTruthy();
    expect(within(body).getByText('A signed-in customer with an empty basket')).toBeTruthy();
    const steps = body.querySelectorAll('ol > li');
    expect(steps).toHaveLength(2);
    expect(steps[0]!.textContent).toBe('Apply the coupon SAVE10. →expected: The total drops to 224.10 €.');
    expect(steps[0]!.querySelector('small')).toBeNull();
    expect(steps[1]!.querySelector('small')?.textContent).toBe('WCAG 2.4.7, 2.4.11');
    expect(within(body).getByText('Run by a tester on: iPhone 15 · Safari · iOS 18 · about 20 min')).toBeTruthy();
    fireEvent.click(toggle);
    expect(body.hidden).toBe(true);
  });

  it('says who runs it without platforms or an estimate it does not have', () => {
    expect(manualRunText({ platforms: ['iPhone 15 · Safari · iOS 18', 'Pixel 8 · Chrome'], estimateMinutes: 5 })).toBe(
      'Run by a tester on: iPhone 15 · Safari · iOS 18; Pixel 8 · Chrome · about 5 min',
    );
    expect(manualRunText({ platforms: [], estimateMinutes: 0 })).toBe('Run by a tester');
  });

  it('adds nothing to an automated test', () => {
    row(undefined);
    expect(screen.queryByText('Manual')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Steps/ })).toBeNull();
  });
});
